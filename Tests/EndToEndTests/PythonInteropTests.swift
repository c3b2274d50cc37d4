import Foundation
import Testing

/// A WebSocket implementation we did not write (Python `websockets`, installed by `scripts/setup.sh
/// --test`) plays a whole rummy room and a darts match against the real `parlor-server`, with and without
/// compression.
@Suite(.serialized) struct PythonInteropTests {
    @Test(arguments: ["deflate", "plain"])
    func pythonWebsocketsPlaysARoomToSettlement(mode: String) async throws {
        let server = try await ServerProcess.start(["--no-persist"])
        let (status, output) = try await ScriptRunner.run("python3", "rummy_websockets.py", arguments: [server.url, mode])
        await server.stop()
        #expect(status == 0, "\(output)")
        #expect(output.contains(#""ok": true"#), "\(output)")
        #expect(output.contains("[1250, 3375]"), "\(output)")
    }

    @Test(arguments: ["deflate", "plain"])
    func pythonWebsocketsPlaysADartsMatchWithASpectator(mode: String) async throws {
        let server = try await ServerProcess.start(["--no-persist"])
        let (status, output) = try await ScriptRunner.run("python3", "darts_websockets.py", arguments: [server.url, mode])
        await server.stop()
        #expect(status == 0, "\(output)")
        #expect(output.contains(#""ok": true"#) && output.contains(#""average": 167"#), "\(output)")
    }
}
