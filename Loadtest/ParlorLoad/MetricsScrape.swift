import Foundation
import NIOCore
import NIOPosix
import WebSocketCore

/// Reads gauges from the server's Prometheus endpoint (`GET /metrics`), to confirm from the server's side
/// what the generator believes it holds (connections, subscriptions, rooms).
enum MetricsScrape {
    /// The `/metrics` address of the server behind a `ws://` URL.
    static func endpoint(forWebSocketURL url: String) -> (host: String, port: Int)? {
        guard let target = try? WebSocketURL(url), !target.secure else { return nil }
        return (target.host, target.port)
    }

    /// The value of each gauge in `names` (lines `name value` without labels); missing ones are absent.
    static func gauges(_ names: Set<String>, host: String, port: Int) async -> [String: Double] {
        guard let text = try? await fetch(host: host, port: port) else { return [:] }
        var values: [String: Double] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let parts = line.split(separator: " ")
            guard parts.count == 2, names.contains(String(parts[0])), let value = Double(parts[1]) else { continue }
            values[String(parts[0])] = value
        }
        return values
    }

    /// `GET /metrics` over a plain HTTP/1.1 connection; the body, read up to its Content-Length.
    private static func fetch(host: String, port: Int) async throws -> String {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connectTimeout(.seconds(5))
            .connect(host: host, port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        return try await channel.executeThenClose { inbound, outbound in
            try await outbound.write(
                ByteBuffer(string: "GET /metrics HTTP/1.1\r\nHost: \(host):\(port)\r\nConnection: close\r\n\r\n"))
            var response = ByteBuffer()
            for try await var chunk in inbound {
                response.writeBuffer(&chunk)
                if let body = completeBody(String(buffer: response)) { return body }
                if response.readableBytes > 8 << 20 { break }
            }
            return completeBody(String(buffer: response)) ?? ""
        }
    }

    private static func completeBody(_ response: String) -> String? {
        guard let split = response.range(of: "\r\n\r\n") else { return nil }
        let head = response[..<split.lowerBound].lowercased()
        let body = String(response[split.upperBound...])
        guard let line = head.split(separator: "\r\n").first(where: { $0.hasPrefix("content-length:") }),
            let length = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces))
        else { return nil }
        return body.utf8.count >= length ? body : nil
    }
}
