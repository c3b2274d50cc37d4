import Foundation
import NIOConcurrencyHelpers
import NIOCore
import ParlorTestSupport
import Testing
import WebSocketCore

/// Our WebSocket implementation against one we did not write (Python `websockets`), both directions.
@Suite(.serialized) struct TransportInteropTests {
    @Test(arguments: ["deflate", "plain"])
    func pythonClientAgainstOurEchoEndpoint(mode: String) async throws {
        let server = try await ServerProcess.start(["--no-persist", "--echo", "--max-message-size", "1048576"])
        let (status, output) = try await ScriptRunner.run(
            "python3", "echo_websockets.py", arguments: ["ws://127.0.0.1:\(server.port)/echo", mode])
        await server.stop()
        #expect(status == 0, "\(output)")
        #expect(output.contains(#""ok": true"#), "\(output)")
        if mode == "deflate" { #expect(output.contains("permessage-deflate"), "\(output)") }
    }

    @Test func pythonClientOverTLSAgainstTheRealServer() async throws {
        let pki = try TestPKI.get()
        let server = try await ServerProcess.start([
            "--no-persist", "--echo", "--tls-cert", pki.serverCertificate, "--tls-key", pki.serverKey,
        ])
        let (status, output) = try await ScriptRunner.run(
            "python3", "echo_websockets.py", arguments: ["wss://localhost:\(server.port)/echo", "deflate", pki.caCertificate])
        await server.stop()
        #expect(status == 0, "\(output)")
        #expect(output.contains(#""tls": "TLSv1.3""#), "\(output)")
    }

    @Test(arguments: [true, false])
    func ourClientAgainstAPythonServer(compress: Bool) async throws {
        let server = try ChildProcess(
            executable: "/usr/bin/env", ["python3", try ScriptRunner.scriptPath("echo_server.py"), compress ? "deflate" : "plain"],
            name: "echo_server.py")
        defer { Task { await server.stop() } }
        let (_, line) = try await server.waitForLine(timeout: .seconds(30), "port N") { $0.hasPrefix("port ") }
        let serverPort = try #require(Int(line.dropFirst(5)), "the Python server printed \(line)")
        var configuration = WebSocketClientConfiguration()
        if !compress { configuration.webSocket.compression = nil }
        configuration.webSocket = configuration.webSocket.withMessageLimit(1 << 22)
        try await WebSocketClient.connect(to: "ws://127.0.0.1:\(serverPort)/", configuration: configuration) { ws in
            #expect((ws.compression != nil) == compress)
            var replies = ws.inbound.makeAsyncIterator()
            let big = String(repeating: "parlor ", count: 100_000)
            let random = ByteBuffer(bytes: (0..<70_000).map { _ in UInt8.random(in: 0...255) })
            for message in [WebSocketMessage.text("Hello"), .text("κόσμε 🎲"), .text(big), .binary(random)] {
                try await ws.send(message)
                #expect(try await replies.next() == message)
            }
            await ws.close(code: WebSocketCloseCode(rawValue: 4000), reason: "bye")
            #expect(await ws.closeStatus.code.rawValue == 4000)
        }
    }
}
