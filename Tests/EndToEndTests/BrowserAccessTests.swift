import Foundation
import ParlorTestSupport
import Testing

/// Who may join a game in the browser client (`browser_access.py`, three headless Chromium browsers on
/// the real `parlor-server`): a private darts match, its host's invitation link that lets one phone in,
/// a phone without it refused with the sentence for `NOT_INVITED`, and the host's lock, which every
/// open page shows and which refuses even an invited phone (`GAME_LOCKED`); then the handover, after
/// which the new host's page has the controls.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct BrowserAccessTests {
    @Test func aPrivateMatchIsJoinedByItsInvitationLinkAndLocked() async throws {
        let screenshots = FileManager.default.temporaryDirectory.appendingPathComponent("parlor-access-screens-\(UUID().uuidString)").path
        print("Browser access screenshots: \(screenshots)")
        let server = try await ServerProcess.start(["--no-persist"])
        let (status, output) = try await ScriptRunner.run(
            "python3", "browser_access.py", arguments: ["http://127.0.0.1:\(server.port)", screenshots], timeout: .seconds(90))
        await server.stop()
        #expect(status == 0, "\(output)")
        #expect(output.contains(#""ok": true"#), "\(output)")
        #expect(output.contains(#""player": "Private · Locked""#), "\(output)")
    }
}
