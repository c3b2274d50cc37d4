import Foundation
import ParlorRules
import Testing
@testable import ParlorServer

/// Not a test: how many acknowledged `saveRoom` calls per second the store sustains with 1, 100 and
/// 1,000 rooms writing at once, for `synchronous` FULL and NORMAL, beside the in-memory store as the
/// "store switched off" line. Run by hand, and record the figures in docs/BENCHMARKS.md:
///
///     PARLOR_STORE_BENCH=1 swift test -c release --filter StoreBenchmark
///
/// `PARLOR_STORE_BENCH_SECONDS` (default 5) sets the length of each run; `PARLOR_STORE_BENCH_DIR`
/// where the databases go (default: the system temporary directory; it must be a real disk, since on
/// tmpfs `fsync` costs nothing and the figures mean nothing).
@Suite(
    .enabled(if: ProcessInfo.processInfo.environment["PARLOR_STORE_BENCH"] == "1", "set PARLOR_STORE_BENCH=1 to run"),
    .serialized)
struct StoreBenchmark {
    enum Subject: CustomStringConvertible {
        case inMemory
        case encodeOnly
        case sqlite(SQLiteStoreConfiguration.Synchronous)

        var description: String {
            switch self {
            case .inMemory: "in-memory (store off)"
            case .encodeOnly: "JSON encoding only, no disk"
            case .sqlite(let synchronous): "SQLite synchronous=\(synchronous.rawValue)"
            }
        }
    }

    struct Figures {
        var saves = 0
        var latencies: [Duration] = []
    }

    let environment = ProcessInfo.processInfo.environment

    @Test func acknowledgedRoomSavesPerSecond() async throws {
        let seconds = Double(environment["PARLOR_STORE_BENCH_SECONDS"] ?? "") ?? 5
        let sample = try Self.room(number: 0)
        let payloadBytes = try JSONEncoder().encode(sample).count
        var lines = [
            "each run \(seconds) s; one 8-player started RummyRoom per writer, \(payloadBytes) bytes of JSON",
            "| store | rooms writing | saves/s | saves per commit | p50 latency | p99 latency |",
            "|---|---:|---:|---:|---:|---:|",
        ]
        for concurrency in [1, 100, 1_000] {
            for subject in [Subject.inMemory, .encodeOnly, .sqlite(.full), .sqlite(.normal)] {
                lines.append(try await run(subject, concurrency: concurrency, seconds: seconds))
                print(lines.last ?? "")
            }
        }
        print(lines.joined(separator: "\n"))
    }

    private func run(_ subject: Subject, concurrency: Int, seconds: Double) async throws -> String {
        let base = environment["PARLOR_STORE_BENCH_DIR"] ?? FileManager.default.temporaryDirectory.path
        let directory = base + "/parlor-store-bench-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }

        let store: any ParlorStore
        var sqlite: SQLiteStore?
        switch subject {
        case .inMemory:
            store = InMemoryStore()
        case .encodeOnly:
            store = EncodeOnlyStore()
        case .sqlite(let synchronous):
            var configuration = SQLiteStoreConfiguration()
            configuration.synchronous = synchronous
            configuration.checksIntegrityAtStart = false
            sqlite = try SQLiteStore(directory: directory, configuration: configuration)
            store = try #require(sqlite)
        }
        let rooms = try (0..<concurrency).map { try Self.room(number: $0) }
        // Every room exists before the clock starts: the run measures updates, as a live server does.
        for room in rooms { try await store.saveRoom(room) }

        let batchesBefore = sqlite?.committedBatches ?? 0
        let clock = ContinuousClock()
        let started = clock.now
        let deadline = started + .milliseconds(Int(seconds * 1000))
        let figures = try await withThrowingTaskGroup(of: Figures.self) { group in
            for room in rooms {
                group.addTask { try await Self.write(room, to: store, until: deadline, clock: clock) }
            }
            return try await group.reduce(into: Figures()) { total, one in
                total.saves += one.saves
                total.latencies += one.latencies
            }
        }
        let elapsed = started.duration(to: clock.now)
        let batches = (sqlite?.committedBatches ?? 0) - batchesBefore
        await sqlite?.close()

        let perSecond = Double(figures.saves) / (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
        let perCommit = sqlite == nil || batches == 0 ? "—" : String(format: "%.1f", Double(figures.saves) / Double(batches))
        let sorted = figures.latencies.sorted()
        return "| \(subject) | \(concurrency) | \(Int(perSecond.rounded())) | \(perCommit) | \(Self.format(sorted, 0.50)) | \(Self.format(sorted, 0.99)) |"
    }

    /// One room's actor: change the room, save it, wait for the acknowledgement, again.
    private static func write(
        _ start: RummyRoom, to store: any ParlorStore, until deadline: ContinuousClock.Instant, clock: ContinuousClock
    ) async throws -> Figures {
        var room = start
        var figures = Figures()
        let moderator = room.players[0].id
        while clock.now < deadline {
            let player = room.players[figures.saves % room.players.count].id
            _ = try room.apply(
                .submitScore(playerId: player, round: 1, score: (figures.saves * 13) % RummyRules.maxRoundScore),
                by: moderator, at: .epoch)
            let before = clock.now
            try await store.saveRoom(room)
            figures.latencies.append(before.duration(to: clock.now))
            figures.saves += 1
        }
        return figures
    }

    private static func room(number: Int) throws -> RummyRoom {
        try StoreFixtures.startedRoom(StoreFixtures.code(number), players: (0..<8).map { StoreFixtures.user(number * 8 + $0) })
    }

    private static func format(_ sorted: [Duration], _ quantile: Double) -> String {
        guard !sorted.isEmpty else { return "—" }
        let value = sorted[min(sorted.count - 1, Int(Double(sorted.count) * quantile))]
        let milliseconds = Double(value.components.seconds) * 1000 + Double(value.components.attoseconds) / 1e15
        return String(format: "%.2f ms", milliseconds)
    }
}

/// Encodes every room exactly as `SQLiteStore` does before queueing it, then drops it: the part of
/// persisting that costs CPU on the caller's side whatever the disk does.
private final class EncodeOnlyStore: ForwardingStore {
    let forwardee = InMemoryStore()
    func serverSecret() async throws(StoreError) -> [UInt8] { [] }
    func loadGames(_ kind: GameKind) async throws(StoreError) -> [StoredGame] { [] }
    func saveGame(_ game: StoredGame) async throws(StoreError) { _ = try SQLiteWrite.save(game) }
    func deleteGame(_ kind: GameKind, id: String, version: Int?) async throws(StoreError) {}
    func history(_ kind: GameKind, of user: UserID, before: Instant?, limit: Int) async throws(StoreError) -> [StoredState] { [] }
    func checkWritable() async throws(StoreError) {}
    func close() async {}
}
