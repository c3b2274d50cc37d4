import ArgumentParser
import Foundation
import NIOCore
import WebSocketCore

/// Runs our WebSocket client against the Autobahn TestSuite's fuzzing server (`wstest -m fuzzingserver`):
/// every case connects, echoes whatever the suite sends, and lets the suite close.
struct AutobahnClientCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "autobahn",
        abstract: "Run our WebSocket client as the Autobahn fuzzing server's echo agent.")

    @Option(help: "The fuzzing server's base URL.")
    var server: String = "ws://127.0.0.1:9001"

    @Option(help: "Agent name the reports are filed under.")
    var agent: String = "parlor"

    @Option(help: "Only run cases from this number (1-based) on.")
    var from: Int = 1

    func run() async throws {
        var configuration = WebSocketClientConfiguration()
        // The suite sends messages of up to 16 MiB (cases 9.x).
        configuration.webSocket = configuration.webSocket.withMessageLimit(64 << 20)
        configuration.webSocket.pingInterval = nil
        configuration.webSocket.idleTimeout = nil

        let count = try await WebSocketClient.connect(to: "\(server)/getCaseCount", configuration: configuration) { ws in
            var inbound = ws.inbound.makeAsyncIterator()
            return Int(try await inbound.next()?.text ?? "") ?? 0
        }
        print("Autobahn reports \(count) cases")
        for index in from...max(from, count) where count > 0 {
            do {
                try await WebSocketClient.connect(
                    to: "\(server)/runCase?case=\(index)&agent=\(agent)", configuration: configuration
                ) { ws in
                    for try await message in ws.inbound { try await ws.send(message) }
                }
            } catch {
                // Failing the connection is the expected outcome of many cases.
            }
            if index % 50 == 0 { print("ran \(index) of \(count)") }
        }
        try await WebSocketClient.connect(to: "\(server)/updateReports?agent=\(agent)", configuration: configuration) { ws in
            for try await _ in ws.inbound {}
        }
        print("reports updated")
    }
}
