import Foundation
import ParlorWire
import Testing

/// `--version` on each of the three executables prints the one version they were built with.
@Suite struct VersionFlagTests {
    @Test(arguments: ["parlor-server", "parlor", "parlor-load"]) func everyExecutableSaysItsVersion(executable: String) async throws {
        let process = try ChildProcess(executable, ["--version"])
        let status = await process.waitForExit(timeout: .seconds(30))
        #expect(status == 0)
        #expect(await process.waitForOutput())
        #expect(process.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines) == ParlorRelease.version)
    }
}
