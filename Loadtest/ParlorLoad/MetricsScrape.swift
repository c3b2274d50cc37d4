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
        guard let text = await text(host: host, port: port) else { return [:] }
        var values: [String: Double] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let parts = line.split(separator: " ")
            guard parts.count == 2, names.contains(String(parts[0])), let value = Double(parts[1]) else { continue }
            values[String(parts[0])] = value
        }
        return values
    }

    /// The whole exposition, nil if the server could not be asked.
    /// Gives up after `timeout`: a server at its open-file limit leaves the request in its accept
    /// queue, unanswered.
    static func text(host: String, port: Int, timeout: Duration = .seconds(5)) async -> String? {
        await withTaskGroup(of: String?.self) { group in
            group.addTask { try? await fetch(host: host, port: port) }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }

    /// A Prometheus histogram of the server's (`name` with the label `label`, e.g. `op="submitScore"`),
    /// summarised over the server's whole life: quantiles are the upper bounds of the buckets they fall in.
    static func histogram(_ name: String, label: String? = nil, in text: String) -> ServerHistogram? {
        buckets(name, label: label, in: text)?.summary
    }

    /// The cumulative buckets and sum of one histogram of the server's, as the exposition has them.
    static func buckets(_ name: String, label: String? = nil, in text: String) -> HistogramBuckets? {
        var buckets: [(bound: Double, count: Int)] = []
        var sum = 0.0
        for line in text.split(separator: "\n") where line.hasPrefix(name) {
            if let label, !line.contains(label) { continue }
            guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else { continue }
            if line.hasPrefix(name + "_bucket{"), let le = line.range(of: "le=\"") {
                let rest = line[le.upperBound...]
                guard let quote = rest.firstIndex(of: "\"") else { continue }
                let bound = rest[..<quote] == "+Inf" ? Double.infinity : Double(rest[..<quote]) ?? .nan
                buckets.append((bound, Int(value)))
            } else if line.hasPrefix(name + "_sum") {
                sum = value
            }
        }
        guard !buckets.isEmpty else { return nil }
        buckets.sort { $0.bound < $1.bound }
        return HistogramBuckets(bounds: buckets.map(\.bound), counts: buckets.map(\.count), sum: sum)
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

/// One histogram of the server's as read from `/metrics`: cumulative counts per upper bound (seconds),
/// and the sum. Read at a run's start and end, their difference is what the run itself caused.
struct HistogramBuckets: Sendable, Equatable {
    var bounds: [Double]
    var counts: [Int]
    var sum: Double

    /// What was recorded since `earlier` (a reading of the same histogram); nil if the buckets differ or
    /// the server restarted in between (a count went down).
    func since(_ earlier: HistogramBuckets) -> HistogramBuckets? {
        guard bounds == earlier.bounds else { return nil }
        let counts = zip(self.counts, earlier.counts).map { $0 - $1 }
        guard counts.allSatisfy({ $0 >= 0 }) else { return nil }
        return HistogramBuckets(bounds: bounds, counts: counts, sum: sum - earlier.sum)
    }

    /// Count, mean and bucket-bound quantiles in milliseconds; nil when nothing was recorded.
    var summary: ServerHistogram? {
        guard let total = counts.last, total > 0 else { return nil }
        func upperBound(_ quantile: Double) -> Double? {
            let index = counts.firstIndex { Double($0) >= quantile * Double(total) }
            return index.flatMap { bounds[$0].isFinite ? bounds[$0] * 1000 : nil }
        }
        return ServerHistogram(
            count: total, mean: sum / Double(total) * 1000, p50AtMost: upperBound(0.5), p99AtMost: upperBound(0.99),
            largestBound: bounds.last { $0.isFinite }.map { $0 * 1000 })
    }
}

/// A latency histogram as the server itself recorded it (milliseconds). Quantiles are bucket upper
/// bounds ("at most"); nil when the quantile fell past the largest bucket.
struct ServerHistogram: Codable, Sendable {
    var count: Int
    var mean: Double?
    var p50AtMost: Double?
    var p99AtMost: Double?
    var largestBound: Double?

    var description: String {
        func bound(_ value: Double?) -> String {
            value.map { "≤ \(formatMilliseconds($0))" } ?? "> \(formatMilliseconds(largestBound))"
        }
        return "\(count) recorded, mean \(formatMilliseconds(mean)), p50 \(bound(p50AtMost)), p99 \(bound(p99AtMost))"
    }
}

/// The server's histograms of one run: what the run itself caused (the end's reading less the
/// start's) and the server's whole life (the end's reading, earlier runs and set-up included).
struct ServerHistograms {
    var operationThisRun: ServerHistogram?
    var broadcastThisRun: ServerHistogram?
    var operationLifetime: ServerHistogram?
    var broadcastLifetime: ServerHistogram?

    init() {}

    /// `atStart` nil (the server could not be read then): the whole life stands in for the run.
    init(operation: (name: String, label: String), broadcast: String, atStart: String?, atEnd: String) {
        func split(_ name: String, _ label: String?) -> (run: ServerHistogram?, lifetime: ServerHistogram?) {
            guard let end = MetricsScrape.buckets(name, label: label, in: atEnd) else { return (nil, nil) }
            let start = atStart.flatMap { MetricsScrape.buckets(name, label: label, in: $0) }
            let run = start.map { end.since($0) } ?? end
            return (run?.summary, end.summary)
        }
        (operationThisRun, operationLifetime) = split(operation.name, operation.label)
        (broadcastThisRun, broadcastLifetime) = split(broadcast, nil)
    }
}
