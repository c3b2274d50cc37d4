import Foundation
import ParlorTestSupport
import Testing

/// `--memory-trim-after` through the real `parlor-server`: a wave of that many closed connections
/// hands freed memory back (counted on `/metrics`), and 0 turns it off.
@Suite(.serialized) struct MemoryTrimFlagTests {
    /// The value of an unlabelled metric on the server's `/metrics`; nil when it is not there.
    static func metric(_ name: String, _ server: ServerProcess) async throws -> Double? {
        let (status, _, body) = try await curl(["http://127.0.0.1:\(server.port)/metrics"])
        guard status == 200 else { return nil }
        for line in body.split(separator: "\n") where line.hasPrefix(name + " ") {
            return Double(line.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces))
        }
        return nil
    }

    @Test func aClosedWaveOfConnectionsTrimsOnceItIsAsLargeAsTheFlagSays() async throws {
        try await ServerProcess.with(["--no-persist", "--memory-trim-after", "3"]) { server in
            try await HardeningFlagsTests.holding(4, server.url) {
                #expect(await eventually { (try? await Self.metric("parlor_connections", server)) == 4 })
                // The server counts its connections once a second: held past two looks, the peak is seen.
                try await Task.sleep(for: .milliseconds(2500))
            }
            // It trims once the count has stopped falling.
            #expect(
                await eventually(timeout: .seconds(20)) {
                    try? await Task.sleep(for: .milliseconds(200))
                    return (try? await Self.metric("parlor_memory_trims_total", server)) == 1
                })
            #expect(try await Self.metric("parlor_memory_returned_bytes_total", server) != nil)
        }
    }

    @Test func zeroNeverTrims() async throws {
        try await ServerProcess.with(["--no-persist", "--memory-trim-after", "0"]) { server in
            try await HardeningFlagsTests.holding(4, server.url) {
                #expect(await eventually { (try? await Self.metric("parlor_connections", server)) == 4 })
                // The server counts its connections once a second: held past two looks, the peak is seen.
                try await Task.sleep(for: .milliseconds(2500))
            }
            #expect(await eventually { (try? await Self.metric("parlor_connections", server)) == 0 })
            // Three looks of the reclaimer's (one a second) after the wave closed: none trimmed.
            try await Task.sleep(for: .seconds(3))
            #expect(try await Self.metric("parlor_memory_trims_total", server) == 0)
        }
    }
}
