import WebSocketCore

/// `/echo`: sends every message straight back, text as text and binary as binary. Off unless
/// `--echo` is given; it exists for conformance runs (Autobahn) and transport benchmarks.
enum EchoEndpoint {
    static let path = "/echo"

    static func serve(_ webSocket: WebSocket) async {
        do {
            for try await message in webSocket.inbound {
                try await webSocket.send(message)
            }
        } catch {
            // The peer went away mid-echo; nothing to clean up.
        }
    }
}
