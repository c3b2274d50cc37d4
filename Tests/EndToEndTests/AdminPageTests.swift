import Foundation
import ParlorTestSupport
import Testing

/// The operator's page served by the real `parlor-server` (started without `--admin-token`, so it makes
/// one and prints it once on stderr), in headless Chromium beside three phones playing a room: a wrong
/// token is refused, the right one shows the room and its members, and closing it takes it away.
/// Screenshots at 1280×800 and 390×844 go to a directory the test prints.
@Suite(.serialized, .timeLimit(.minutes(4)))
struct AdminPageTests {
    @Test func theAdminPageRefusesAWrongTokenAndShowsTheGameThreeBrowsersPlay() async throws {
        let screenshots = FileManager.default.temporaryDirectory.appendingPathComponent("parlor-admin-screens-\(UUID().uuidString)").path
        print("Admin screenshots: \(screenshots)")
        let server = try await ServerProcess.start(["--log-level", "info"])
        let printed = server.process.standardError.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("admin token: ") else { return nil }
            return line.dropFirst("admin token: ".count).split(separator: " ").first.map(String.init)
        }
        let token = try #require(printed.first, "parlor-server printed no admin token: \(server.process.standardError)")
        #expect(printed.count == 1 && token.count >= 32)
        let (status, output) = try await ScriptRunner.run(
            "python3", "admin_page.py", arguments: ["http://127.0.0.1:\(server.port)", token, screenshots], timeout: .seconds(200))
        await server.stop()
        let log = server.process.standardError
        try? FileManager.default.removeItem(atPath: server.dataDirectory)
        #expect(status == 0, "\(output)")
        #expect(output.contains(#""ok": true"#), "\(output)")
        #expect(log.components(separatedBy: token).count == 2, "the token is printed once and never logged")
        #expect(log.contains("Operator closed a game") && log.contains("The venue is closing"), "\(log)")
    }
}
