import Logging
import NIOConcurrencyHelpers
import ParlorRules
import ParlorTestSupport
import ParlorWire
import Synchronization
import Testing
@testable import ParlorServer

/// The game actor's groups, on rummy rooms, without sockets: mutations that queue while a room waits for the store are
/// applied in order and saved once, each answered with its own version; a failed save keeps nothing of
/// its group; a finishing game and a deletion end a group, so history and deletion see what they must.
@Suite struct RoomGroupCommitTests {
    static let ann = UserID("00000000-0000-4000-8000-0000000000a1")!
    static let bo = UserID("00000000-0000-4000-8000-0000000000b0")!

    /// A started room with Ann (moderator) and Bo.
    static func startedRoom(pointLimit: Int = 350) throws -> RummyRoom {
        let now = Instant(millisecondsSinceEpoch: 1_800_000_000_000)
        var room = try RummyRoom.create(
            code: RoomCode(uncheckedRawValue: "GRP123"), pointLimit: pointLimit, pointValue: 25, playerCount: 4,
            creator: ann, playerName: "Ann", at: now)
        _ = try room.apply(.join(playerName: "Bo"), by: bo, at: now)
        _ = try room.apply(.setReady(playerId: bo, ready: true), by: bo, at: now)
        _ = try room.apply(.startGame, by: ann, at: now)
        return room
    }

    /// The room's actor, hosted over `store` and in its host's directory; `deleted` counts the room's
    /// deletions from the store.
    static func actor(_ room: RummyRoom, _ store: HeldStore, deleted: NIOLockedValueBox<Int>? = nil) async throws -> RoomActor {
        var logger = Logger(label: "parlor.test")
        logger.logLevel = .critical
        store.deletions = deleted
        let clock = ManualClock()
        let timers = GameTimers(clock: clock)
        let kernel = Kernel(
            configuration: ServerConfiguration(), store: store, clock: clock, logger: logger, timers: timers, quota: GameQuota(limit: 10),
            presence: Presence(clock: clock, timers: timers))
        let host = GameHost(RummyGame(maxGames: 10), kernel: kernel)
        let actor = try RoomActor(room, publicView: EncodedJSON(gameRoomOf: room), schedule: GameSchedule(), host: host)
        host.directory.install(actor, id: actor.id, code: actor.code)
        return actor
    }

    static func version(_ result: Result<RoomActor.Outcome, WireError>) -> Int? {
        if case .success(.game(let room, _, _)) = result { return room.version }
        return nil
    }

    static func code(_ result: Result<RoomActor.Outcome, WireError>) -> ErrorCode? {
        if case .failure(let error) = result { return error.code }
        return nil
    }

    /// Runs `action` on the actor in a task of its own and returns its handle.
    static func start(_ actor: RoomActor, _ action: RummyAction, by caller: UserID) -> Task<Result<RoomActor.Outcome, WireError>, Never> {
        Task {
            do throws(WireError) {
                return .success(try await actor.perform(action, by: caller))
            } catch {
                return .failure(error)
            }
        }
    }

    /// A started room whose first mutation, Ann's `firstScore`, is waiting for the held store.
    static func roomWaitingForItsFirstSave(
        pointLimit: Int = 350, firstScore: Int = 1, deleted: NIOLockedValueBox<Int>? = nil
    ) async throws -> (room: RummyRoom, store: HeldStore, actor: RoomActor, first: Task<Result<RoomActor.Outcome, WireError>, Never>) {
        let room = try startedRoom(pointLimit: pointLimit)
        let store = HeldStore()
        let actor = try await actor(room, store, deleted: deleted)
        store.hold()
        let first = start(actor, .submitScore(playerId: ann, round: 1, score: firstScore), by: ann)
        await eventually { store.waitingSaves == 1 }
        return (room, store, actor, first)
    }

    @Test func mutationsQueuedBehindASaveAreAppliedInOrderAndSavedOnce() async throws {
        let (room, store, actor, first) = try await Self.roomWaitingForItsFirstSave()

        // Nine changes and one invalid score queue behind the first save.
        var queued: [(player: UserID, score: Int, task: Task<Result<RoomActor.Outcome, WireError>, Never>)] = []
        for index in 0..<10 {
            let player = index.isMultiple(of: 2) ? Self.ann : Self.bo
            let score = index == 5 ? -1 : 100 + index
            queued.append((player, score, Self.start(actor, .submitScore(playerId: player, round: 1, score: score), by: player)))
        }
        await eventually { await actor.queuedMutations == 10 }
        store.release()

        #expect(Self.version(await first.value) == room.version + 1)
        var latestByPlayer: [UserID: (version: Int, score: Int)] = [:]
        var versions: [Int] = []
        for entry in queued {
            let result = await entry.task.value
            if entry.score < 0 {
                #expect(Self.code(result) == .invalidInput)
                continue
            }
            let version = try #require(Self.version(result))
            versions.append(version)
            if version > latestByPlayer[entry.player]?.version ?? 0 { latestByPlayer[entry.player] = (version, entry.score) }
        }
        // Every change got its own version, one after another, after the first save's.
        #expect(versions.sorted() == Array((room.version + 2)...(room.version + 10)))
        // Two saves: the first mutation's, then the nine queued changes' last room.
        #expect(store.savedVersions == [room.version + 1, room.version + 10])

        let (final, _) = try await actor.current()
        #expect(final.version == room.version + 10)
        for (player, latest) in latestByPlayer {
            #expect(final.player(player)?.scores.first == latest.score)
        }
        let stored = try #require(try await store.loadRooms().first)
        #expect(stored == final)
    }

    @Test func aFailedSaveKeepsNothingOfItsGroup() async throws {
        let (room, store, actor, first) = try await Self.roomWaitingForItsFirstSave()
        let group = (0..<3).map { Self.start(actor, .submitScore(playerId: Self.bo, round: 1, score: 50 + $0), by: Self.bo) }
        await eventually { await actor.queuedMutations == 3 }

        store.releaseOne()
        #expect(Self.version(await first.value) == room.version + 1)
        await eventually { store.waitingSaves == 1 }  // The group's one save.
        store.failNextSave()
        store.release()
        for task in group {
            #expect(Self.code(await task.value) == .internal)
        }

        let (kept, _) = try await actor.current()
        #expect(kept.version == room.version + 1)
        #expect(kept.player(Self.bo)?.scores.first == 0)
        // The room goes on from what was saved.
        let retry = Self.start(actor, .submitScore(playerId: Self.bo, round: 1, score: 7), by: Self.bo)
        let after = await retry.value
        #expect(Self.version(after) == room.version + 2)
        #expect(store.savedVersions == [room.version + 1, room.version + 2])
    }

    @Test func aFinishingGameIsSavedAsItFinishedBeforeAnyoneLeaves() async throws {
        let (room, store, actor, score) = try await Self.roomWaitingForItsFirstSave(pointLimit: 100, firstScore: 150)
        let finish = Self.start(actor, .nextRound, by: Self.ann)
        await eventually { await actor.queuedMutations == 1 }
        let leave = Self.start(actor, .leave(playerId: Self.bo), by: Self.bo)
        await eventually { await actor.queuedMutations == 2 }
        store.release()

        #expect(Self.version(await score.value) == room.version + 1)
        #expect(Self.version(await finish.value) == room.version + 2)
        #expect(Self.version(await leave.value) == room.version + 3)
        // The finishing version was saved on its own, with both players, then the leave.
        let saved = store.savedRooms
        #expect(saved.map(\.version) == [room.version + 1, room.version + 2, room.version + 3])
        #expect(saved[1].isFinished && saved[1].players.count == 2)
        #expect(saved[2].players.count == 1)
    }

    @Test func aDeletionEndsTheGroupAndLaterMutationsFindNoRoom() async throws {
        let deletions = NIOLockedValueBox(0)
        let (room, store, actor, score) = try await Self.roomWaitingForItsFirstSave(deleted: deletions)
        let boLeaves = Self.start(actor, .leave(playerId: Self.bo), by: Self.bo)
        await eventually { await actor.queuedMutations == 1 }
        let annLeaves = Self.start(actor, .leave(playerId: Self.ann), by: Self.ann)
        await eventually { await actor.queuedMutations == 2 }
        let late = Self.start(actor, .submitScore(playerId: Self.ann, round: 1, score: 9), by: Self.ann)
        await eventually { await actor.queuedMutations == 3 }
        store.release()

        #expect(Self.version(await score.value) == room.version + 1)
        #expect(Self.version(await boLeaves.value) == room.version + 2)
        let annLeft = await annLeaves.value
        guard case .success(.deleted) = annLeft else {
            Issue.record("the last player's leave did not delete the room")
            return
        }
        #expect(Self.code(await late.value) == .roomNotFound)
        #expect(store.savedVersions == [room.version + 1, room.version + 2])
        #expect(try await store.loadRooms().isEmpty)
        #expect(deletions.withLockedValue { $0 } == 1)
        #expect(actor.feed.isEnded)
    }
}

typealias RoomActor = GameActor<RummyGame>

extension GameActor {
    typealias Outcome = GameResult<Rules>
}

/// A store whose room saves can be held until the test lets them through, and made to fail.
final class HeldStore: ForwardingStore {
    private struct State {
        var holding = false
        var waiting: [CheckedContinuation<Void, Never>] = []
        var failNext = false
        var saved: [RummyRoom] = []
    }

    private let inner = InMemoryStore()
    var forwardee: InMemoryStore { inner }
    private let state = Mutex(State())
    private let deletionCounter = Mutex<NIOLockedValueBox<Int>?>(nil)

    /// Counts deletions of games, when set.
    var deletions: NIOLockedValueBox<Int>? {
        get { deletionCounter.withLock { $0 } }
        set { deletionCounter.withLock { $0 = newValue } }
    }

    /// Saves from now on wait for `release()` or `releaseOne()`.
    func hold() { state.withLock { $0.holding = true } }

    /// Lets every waiting save through, and saves no longer wait.
    func release() {
        let waiting = state.withLock { state in
            state.holding = false
            defer { state.waiting = [] }
            return state.waiting
        }
        for saver in waiting { saver.resume() }
    }

    /// Lets the longest-waiting save through; later saves still wait.
    func releaseOne() {
        let saver = state.withLock { $0.waiting.isEmpty ? nil : $0.waiting.removeFirst() }
        saver?.resume()
    }

    /// The next save that gets through fails as a full disk would.
    func failNextSave() { state.withLock { $0.failNext = true } }

    var waitingSaves: Int { state.withLock { $0.waiting.count } }

    /// The rooms saved successfully, in order.
    var savedRooms: [RummyRoom] { state.withLock { $0.saved } }

    var savedVersions: [Int] { savedRooms.map(\.version) }

    func serverSecret() async throws(StoreError) -> [UInt8] { try await inner.serverSecret() }

    func loadGames(_ kind: GameKind) async throws(StoreError) -> [StoredGame] { try await inner.loadGames(kind) }

    func saveGame(_ game: StoredGame) async throws(StoreError) {
        guard let room = game.room else { return try await inner.saveGame(game) }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state in
                if state.holding { state.waiting.append(continuation) }
                return !state.holding
            }
            if now { continuation.resume() }
        }
        let fails = state.withLock { state in
            defer { state.failNext = false }
            if !state.failNext { state.saved.append(room) }
            return state.failNext
        }
        if fails { throw StoreError(.diskFull, "the disk is full (test)") }
        try await inner.saveGame(game)
    }

    func deleteGame(_ kind: GameKind, id: String, version: Int?) async throws(StoreError) {
        deletions?.withLockedValue { $0 += 1 }
        try await inner.deleteGame(kind, id: id, version: version)
    }

    func history(_ kind: GameKind, of user: UserID, before: Instant?, limit: Int) async throws(StoreError) -> [StoredState] {
        try await inner.history(kind, of: user, before: before, limit: limit)
    }

    func checkWritable() async throws(StoreError) { try await inner.checkWritable() }

    func close() async { await inner.close() }
}
