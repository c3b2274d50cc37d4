// Only without the PostgreSQL trait: a build with it has the clustered store these options ask for
// (PostgresFlagTests). Run with `scripts/test.sh --disable-default-traits`; CI checks the same on its
// default release build of parlor-server (.ci/run).
#if !PostgreSQL
import Foundation
import ParlorTestSupport
import Testing

/// A server built without the PostgreSQL trait, asked for PostgreSQL (`--postgres`, `PARLOR_POSTGRES`,
/// `catalog import --postgres`), stops at once naming the command that builds it with the trait — it
/// never falls back to SQLite in the data directory, which would look like a cluster node and be none.
struct WithoutPostgreSQLTests {
    static let address = "postgres://parlor@127.0.0.1:5432/parlor"
    static let advice = "swift build -c release --traits PostgreSQL"

    /// The flag, and the environment variable.
    static let refusals: [([String], [String: String])] = [
        (["--postgres", address], [:]),
        ([], ["PARLOR_POSTGRES": address]),
    ]

    @Test(arguments: WithoutPostgreSQLTests.refusals)
    func theServerRefusesPostgreSQLNamingTheBuildThatHasIt(_ arguments: [String], _ environment: [String: String]) async throws {
        let dataDirectory = NSTemporaryDirectory() + "parlor-no-postgres-\(UUID().uuidString)"
        let process = try ChildProcess(
            "parlor-server", ["--port", "0", "--places", "none", "--data-dir", dataDirectory] + arguments, environment: environment)
        let status = await process.waitForExit(timeout: .seconds(30))
        #expect(status != nil && status != 0)
        #expect(process.standardError.contains("built without PostgreSQL support"), "\(process.standardError)")
        #expect(process.standardError.contains(Self.advice), "\(process.standardError)")
        #expect(!process.standardOutput.contains("listening on"), "\(process.standardOutput)")
        #expect(!FileManager.default.fileExists(atPath: dataDirectory), "nothing stored in SQLite instead")
    }

    @Test func catalogImportRefusesPostgreSQLNamingTheBuildThatHasIt() async throws {
        let file = NSTemporaryDirectory() + "parlor-no-postgres-\(UUID().uuidString).json"
        try Data(#"{"version": 1, "updatedAt": "2026-01-01T00:00:00Z", "gameModes": []}"#.utf8).write(to: URL(fileURLWithPath: file))
        defer { try? FileManager.default.removeItem(atPath: file) }
        let process = try ChildProcess("parlor-server", ["catalog", "import", file, "--postgres", Self.address])
        let status = await process.waitForExit(timeout: .seconds(30))
        #expect(status != nil && status != 0)
        #expect(process.standardError.contains(Self.advice), "\(process.standardError)")
        #expect(!process.standardOutput.contains("Stored catalog version"), "\(process.standardOutput)")
    }
}
#endif
