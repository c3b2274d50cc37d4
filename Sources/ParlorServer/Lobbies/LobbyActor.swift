import Logging
import ParlorRules
import ParlorWire
import WebSocketCore

/// The one writer of one word lobby.
///
/// Every change goes through `change`: the pure rule computes the next lobby, the store makes it durable,
/// and only then does the actor adopt it, publish it to the lobby's feed and answer. Changes run one at a
/// time in arrival order (the gate), so one that waits for the store cannot interleave with another.
/// Round ends come from `LobbyTimers`, through the same gate.
actor LobbyActor {
    nonisolated let lobbyId: String
    nonisolated let code: LobbyCode
    nonisolated let feed: Feed
    private var lobby: WordLobby
    private var isDeleted = false
    /// When the lobby last changed (for expiry). Lobbies loaded at start-up count from the load.
    private var lastChange: Instant
    private let environment: LobbyEnvironment
    private var gate = GateState()

    /// Wraps a created or restored lobby and publishes its current version. A restored lobby in `GAME`
    /// gets its round timer back (ended at once if the deadline passed while the server was down).
    init(lobby: WordLobby, environment: LobbyEnvironment) throws(WireError) {
        lobbyId = lobby.lobbyId
        code = lobby.lobbyCode
        feed = Feed()
        self.lobby = lobby
        self.environment = environment
        lastChange = environment.clock.now
        let frames = try LobbyFrames(lobby, topic: feed.topic, at: environment.clock.now)
        feed.publish(version: frames.version, frame: frames.lobby, privateFrames: frames.privateFrames)
        if lobby.status == .game, let round = lobby.round {
            environment.timers.schedule(lobbyId: lobby.lobbyId, round: round.number, at: round.deadline)
        }
    }

    // MARK: Operations

    func join(_ profile: LobbyProfile, by caller: UserID) async throws(WireError) {
        try await change { lobby, _ throws(LobbyError) in _ = try lobby.join(caller, profile: profile) }
    }

    func leave(by caller: UserID) async throws(WireError) {
        try await change { lobby, _ throws(LobbyError) in _ = try lobby.leave(caller) }
        // The leaver is no longer a member: their subscriptions end (a deleted lobby's ended already).
        feed.cancel(user: caller, with: [PreparedMessage(json: EventMessage.end(subscription: feed.topic))])
    }

    /// Starts a round of `gameId`, or of the lobby's next game in the catalog when nil.
    func startGame(gameId: String?, by caller: UserID) async throws(WireError) {
        let catalog = environment.catalog.catalog
        let choice: GameChoice = gameId.map { .byID($0, in: catalog) } ?? .next(in: catalog)
        let effect = try await change { lobby, now throws(LobbyError) in try lobby.startGame(choice, by: caller, at: now) }
        if case .scheduleRoundEnd(let round, let deadline) = effect {
            environment.timers.schedule(lobbyId: lobbyId, round: round, at: deadline)
        }
    }

    func submitWord(_ word: String, by caller: UserID) async throws(WireError) -> WordVerdict {
        let wordList = environment.wordList
        return try await change { lobby, now throws(LobbyError) in
            try lobby.submitWord(word, by: caller, at: now, wordList: wordList)
        }
    }

    /// The round timer firing. Ends round `number` if it is still running and due; otherwise nothing.
    /// If the store cannot take the change, the timer tries again shortly, so a round never stays open.
    func endRound(_ number: Int) async {
        do {
            try await change { lobby, now throws(LobbyError) in _ = lobby.endRound(number, at: now) }
        } catch {
            guard let round = lobby.round, round.number == number, !isDeleted else { return }
            let retry = environment.clock.now.adding(milliseconds: LobbyEnvironment.roundEndRetryMilliseconds)
            environment.logger.warning(
                "Round end not saved; retrying", metadata: ["lobby": "\(lobbyId)", "round": "\(number)"])
            environment.timers.schedule(lobbyId: lobbyId, round: number, at: max(retry, round.deadline))
        }
        if let round = lobby.round, round.number == number, !isDeleted, environment.clock.now < round.deadline {
            // Woken early (a clock stepped back): wait for the real deadline.
            environment.timers.schedule(lobbyId: lobbyId, round: number, at: round.deadline)
        }
    }

    /// Subscribes a member to the lobby's versions; the current one arrives first.
    func subscribe(user: UserID) throws(WireError) -> FeedSubscription {
        guard !isDeleted else { throw WireError(LobbyError.notFound(.lobby(lobbyId))) }
        guard lobby.isMember(user) else { throw WireError(LobbyError.permissionDenied(.notMember)) }
        guard let subscription = feed.subscribe(user: user) else { throw WireError(LobbyError.notFound(.lobby(lobbyId))) }
        return subscription
    }

    /// The committed lobby.
    func current() throws(WireError) -> WordLobby {
        guard !isDeleted else { throw WireError(LobbyError.notFound(.lobby(lobbyId))) }
        return lobby
    }

    /// Deletes the lobby if it is between rounds, nobody in it is connected, and it has not changed since `cutoff`.
    func expireIfAbandoned(unchangedSince cutoff: Instant, presence: Presence) async -> Bool {
        await enterGate()
        defer { leaveGate() }
        guard !isDeleted, lobby.status == .open, lastChange <= cutoff,
            !lobby.players.contains(where: { presence.isConnected($0.userId) })
        else { return false }
        do {
            try await delete(reason: "expired")
            return true
        } catch {
            return false
        }
    }

    // MARK: The shell around the rules

    /// Applies `rule` to a copy of the lobby at the clock's `now`; if the lobby changed, stores it, then
    /// adopts and publishes it. A lobby left empty is deleted instead.
    private func change<Output>(
        _ rule: (inout WordLobby, Instant) throws(LobbyError) -> Output
    ) async throws(WireError) -> Output {
        await enterGate()
        defer { leaveGate() }
        guard !isDeleted else { throw WireError(LobbyError.notFound(.lobby(lobbyId))) }
        var next = lobby
        let now = environment.clock.now
        let output: Output
        do {
            output = try rule(&next, now)
        } catch {
            throw WireError(error)
        }
        if next.version == lobby.version { return output }
        if next.players.isEmpty {
            try await delete(reason: "last player left")
            return output
        }
        let frames = try LobbyFrames(next, topic: feed.topic, at: now)
        do {
            try await environment.store.saveLobby(next)
        } catch {
            throw environment.storeFailure(error, operation: "save lobby \(lobbyId)")
        }
        // The gate kept other changes out while we waited, so `lobby` is still the version we started from.
        lobby = next
        lastChange = now
        feed.publish(version: frames.version, frame: frames.lobby, privateFrames: frames.privateFrames)
        return output
    }

    private func delete(reason: String) async throws(WireError) {
        do {
            try await environment.store.deleteLobby(id: lobbyId)
        } catch {
            throw environment.storeFailure(error, operation: "delete lobby \(lobbyId)")
        }
        isDeleted = true
        environment.logger.debug("Lobby deleted", metadata: ["lobby": "\(lobbyId)", "reason": "\(reason)"])
        feed.end(with: LobbyFrames.deleted(topic: feed.topic))
        environment.lobbyDeleted(self)
    }

    private func enterGate() async {
        if gate.tryEnter() { return }
        await withCheckedContinuation { gate.enqueue($0) }
    }

    private func leaveGate() {
        gate.leave()?.resume()
    }
}

/// What lobby actors need from the server around them.
struct LobbyEnvironment: Sendable {
    var store: any ParlorStore
    var clock: any ParlorClock
    var logger: Logger
    var wordList: SetWordList
    var catalog: CatalogService
    var timers: LobbyTimers
    /// Called once when a lobby is deleted, to take it out of the directory and free its code.
    var lobbyDeleted: @Sendable (LobbyActor) -> Void

    /// How long a round end that could not be saved waits before it is tried again.
    static let roundEndRetryMilliseconds: Int64 = 1000

    /// Logs a store failure with its cause and turns it into the `INTERNAL` the caller sees.
    func storeFailure(_ error: StoreError, operation: String) -> WireError {
        logger.error("Store failure", metadata: ["operation": "\(operation)", "cause": "\(error.reason)"])
        return WireError.internalError("The server could not save the change; nothing was changed. Try again.")
    }
}

/// First-come, first-served mutual exclusion for the lobby actor's async operations: it owns one and
/// wraps each operation in `enterGate()` (suspends while another operation holds it) and `leaveGate()`.
struct GateState {
    private var busy = false
    private var waiters: [CheckedContinuation<Void, Never>] = []
    private var head = 0

    /// Takes the gate if it is free.
    mutating func tryEnter() -> Bool {
        if busy { return false }
        busy = true
        return true
    }

    mutating func enqueue(_ waiter: CheckedContinuation<Void, Never>) {
        waiters.append(waiter)
    }

    /// The next waiter, who now holds the gate; nil when nobody waits (the gate is open again).
    mutating func leave() -> CheckedContinuation<Void, Never>? {
        guard head < waiters.count else {
            busy = false
            return nil
        }
        let next = waiters[head]
        head += 1
        if head == waiters.count {
            waiters.removeAll(keepingCapacity: true)
            head = 0
        }
        return next
    }
}
