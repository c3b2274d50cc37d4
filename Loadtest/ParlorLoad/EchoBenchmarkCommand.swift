import ArgumentParser
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import WebSocketCore

/// Echo messages per second over loopback: `connections` clients each keep `window` messages in flight
/// against a server's `/echo` (start it with `parlor-server --echo`).
struct EchoBenchmarkCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "echo",
        abstract: "Measure echo round trips per second against parlor-server --echo.")

    @OptionGroup var address: ServerAddress

    var url: String { address.url(default: "ws://127.0.0.1:8080/echo") }

    @Option(help: "Concurrent connections.")
    var connections: Int = 50

    @Option(help: "Messages each connection keeps in flight.")
    var window: Int = 8

    @Option(help: "Message size in bytes (text).")
    var size: Int = 128

    @Option(help: "Seconds to run.")
    var seconds: Double = 10

    @Flag(help: "Offer permessage-deflate.")
    var compress = false

    func validate() throws {
        guard connections > 0, window > 0, size > 0, seconds > 0 else {
            throw ValidationError("--connections, --window, --size and --seconds must be positive.")
        }
    }

    func run() async throws {
        var configuration = WebSocketClientConfiguration()
        if !compress { configuration.webSocket.compression = nil }
        configuration.webSocket = configuration.webSocket.withMessageLimit(max(size * 2, 1 << 20))
        let payload = String(repeating: "x", count: size)
        let echoed = NIOLockedValueBox(0)
        let deadline = ContinuousClock.now + .milliseconds(Int64(seconds * 1000))
        let started = ContinuousClock.now
        let (url, connections, window, clientConfiguration) = (self.url, self.connections, self.window, configuration)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<connections {
                group.addTask {
                    try await WebSocketClient.connect(to: url, configuration: clientConfiguration) { ws in
                        var inbound = ws.inbound.makeAsyncIterator()
                        for _ in 0..<window { try await ws.send(text: payload) }
                        var count = 0
                        while ContinuousClock.now < deadline {
                            guard try await inbound.next() != nil else { break }
                            count += 1
                            try await ws.send(text: payload)
                        }
                        echoed.withLockedValue { $0 += count }
                    }
                }
            }
            try await group.waitForAll()
        }
        let elapsed = (ContinuousClock.now - started) / .seconds(1)
        let total = echoed.withLockedValue { $0 }
        print(
            "echo: \(connections) connections × window \(window), \(size)-byte messages\(compress ? ", deflate" : ""): "
                + String(format: "%.0f round trips/s (%d in %.1f s)", Double(total) / elapsed, total, elapsed))
    }
}
