import Foundation
import Testing

/// The browser's "Your data" card (`browser_my_data.py`, headless Chromium on the real `parlor-server`):
/// "Download my data" saves the server's export under the name it gives; "Delete my account" wants
/// "delete" typed, then deletes the account, and the page carries on as a new player.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct BrowserMyDataTests {
    @Test func theSettingsCardDownloadsThenDeletesTheAccount() async throws {
        let screenshots = FileManager.default.temporaryDirectory.appendingPathComponent("parlor-my-data-screens-\(UUID().uuidString)").path
        print("Browser my-data screenshots: \(screenshots)")
        let server = try await ServerProcess.start(["--no-persist"])
        let (status, output) = try await ScriptRunner.run(
            "python3", "browser_my_data.py", arguments: ["http://127.0.0.1:\(server.port)", screenshots], timeout: .seconds(90))
        await server.stop()
        #expect(status == 0, "\(output)")
        #expect(output.contains(#""ok": true"#), "\(output)")
    }
}
