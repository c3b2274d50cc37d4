import Logging
import ParlorRules

/// `parlor-server verify-records`: replays every record of a data directory through the rules the
/// server runs, and reports the first divergence of each record that parts from its game.
public enum GameRecordVerification {
    /// One record that does not replay as stored.
    public struct Divergence: Sendable, Equatable, CustomStringConvertible {
        public var kind: String
        public var code: String
        public var record: String
        public var step: Int
        public var reason: String

        public var description: String { "\(kind) \(code) (record \(record)): diverges at step \(step): \(reason)" }
    }

    public struct Report: Sendable {
        /// Records replayed.
        public var checked: Int
        /// Steps replayed, over every record.
        public var steps: Int
        public var divergences: [Divergence]
    }

    /// Opens the SQLite store in `dataDirectory` with the server's games as `configuration` sets them
    /// (their environments: the word list, the catalog), and verifies every record.
    public static func run(configuration: ServerConfiguration, logger: Logger) async throws -> Report {
        let store = try SQLiteStore(directory: configuration.dataDirectory)
        do {
            let report = try await verify(store: store, configuration: configuration, logger: logger)
            await store.close()
            return report
        } catch {
            await store.close()
            throw error
        }
    }

    static func verify(store: any ParlorStore, configuration: ServerConfiguration, logger: Logger) async throws -> Report {
        let services = try await ParlorServices(
            configuration: configuration, store: store, clock: SystemClock(), logger: logger, games: ParlorGames.standard)
        return try await verify(store: store, games: services.games)
    }

    /// Every record of `store` replayed by its kind's host.
    static func verify(store: any ParlorStore, games: [any HostedGame]) async throws(StoreError) -> Report {
        let records = store.backend.records
        var hosts: [String: any RecordReplaying] = [:]
        for game in games {
            if let host = game.recordReplaying { hosts[game.kind.name] = host }
        }
        var report = Report(checked: 0, steps: 0, divergences: [])
        for id in try await records.gameRecordIDs() {
            guard let head = try await records.gameRecord(id: id) else { continue }
            report.checked += 1
            let steps = try await records.gameRecordSteps(id: id, from: 1, limit: Int.max)
            report.steps += steps.count
            guard let host = hosts[head.kind] else {
                report.divergences.append(Divergence(
                    kind: head.kind, code: head.code, record: id, step: 0, reason: "this server has no game of kind \(head.kind)"))
                continue
            }
            let checkpoints = try await records.gameRecordCheckpoints(of: head)
            if let divergence = host.verify(head, steps: steps, checkpoints: checkpoints) {
                report.divergences.append(Divergence(
                    kind: head.kind, code: head.code, record: id, step: divergence.step, reason: divergence.reason))
            }
        }
        return report
    }
}
