import Foundation
import ParlorTestSupport
import Testing

/// The browser client served by the real `parlor-server`, played in three headless Chromium browsers
/// (Debian's `chromium` and `chromium-driver`, driven by Python's `selenium`; `scripts/setup.sh --test`
/// installs them): a rummy room to the settlement, with a spectator, errors shown by their codes and a
/// phone that loses its network and comes back to its seat, and the join link's QR code read back by zbar;
/// then a word-game round to its results; then a darts leg with a guest the host scores for, a
/// spectator, a bust and an edited last visit.
/// Screenshots of every screen at 390×844 go to a directory the test prints.
@Suite(.serialized, .timeLimit(.minutes(6)))
struct BrowserClientTests {
    /// A catalog of one short category game, so the round ends on the server's clock within seconds.
    static let catalog = ShortRoundCatalog.json(timeLimit: 25)

    @Test func threeBrowsersPlayARummyRoomAWordRoundAndADartsLeg() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("parlor-web-data-\(UUID().uuidString)").path
        let catalogFile = data + "-catalog.json"
        try Self.catalog.write(toFile: catalogFile, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: catalogFile) }
        let importer = try ChildProcess("parlor-server", ["catalog", "import", catalogFile, "--data-dir", data])
        let imported = await importer.waitForExit(timeout: .seconds(60))
        #expect(imported == 0, "\(importer.standardError)")

        let screenshots = FileManager.default.temporaryDirectory.appendingPathComponent("parlor-web-screens-\(UUID().uuidString)").path
        print("Browser screenshots: \(screenshots)")
        let server = try await ServerProcess.start([], dataDirectory: data)
        let (status, output) = try await ScriptRunner.run(
            "python3", "browser_client.py", arguments: ["http://127.0.0.1:\(server.port)", screenshots], timeout: .seconds(300))
        await server.stop()
        try? FileManager.default.removeItem(atPath: data)
        #expect(status == 0, "\(output)")
        #expect(output.contains(#""ok": true"#), "\(output)")
        #expect(output.contains("$8.75") && output.contains("$27.50"), "\(output)")
        #expect(output.contains(#"[["Ann", "+3 · total 3"], ["Cy", "+2 · total 2"], ["Bo", "+1 · total 1"]]"#), "\(output)")
        #expect(output.contains(#""Ann\t150.5\t150.5\t100\t121\t1""#) && output.contains(#""Gil\t45\t45\t0\t0\t0""#), "\(output)")
        print(output)
    }
}
