import Logging
import NIOConcurrencyHelpers
import ParlorRules
import ParlorWire
import WebSocketCore

/// The one writer of one live game, of any kind.
///
/// Every mutation — a player's action or a scheduled action firing — goes through the same path: the
/// game's pure reducer computes the next state, the store makes it (and the game's schedule) durable,
/// and only then does the actor adopt it, publish it to the game's feed, carry out its effects and
/// answer. Mutations of one game are applied one at a time in arrival order, and nothing is published
/// or answered before the store has it; different games run in parallel and share the store's group
/// commit.
///
/// Mutations that arrive while the game waits for the store are not held back one save each: the next
/// *group* takes all of them, applies them in order, saves the last state once and answers each with
/// the state as its own mutation left it (every version is still published, in order). A busy game
/// therefore makes one save per commit of the store rather than one per mutation. A group ends early
/// before a mutation that deletes the game (what came before is saved first) and after one that files
/// the game in history (so it is filed, and saved, exactly as it finished).
actor GameActor<Game: GameDefinition> {
    typealias Rules = Game.Rules
    typealias Action = Rules.Action

    nonisolated let id: String
    nonisolated let code: Game.Code
    nonisolated let feed: Feed
    /// The game's record (`GameRecord.swift`); nil for a game created before records existed.
    nonisolated let recordID: String?
    let host: GameHost<Game>
    var state: Rules
    /// The public view of `state`, as published.
    var encoded: EncodedJSON
    var schedule: GameSchedule<Action>
    private(set) var isDeleted = false
    /// When the game last changed (for expiry). Games loaded at start-up count from the load.
    var lastChange: Instant
    /// A group is being applied and saved (or the game is being expired): new mutations queue.
    var isBusy = false
    /// The newest version another node announced (`refresh(toAtLeast:)`).
    var announced = 0
    /// Which node serves the game (`.here` on a node of its own). Read by the host without the actor —
    /// every operation asks whether the game needs a node — and changed only by the actor (`moved`).
    nonisolated let whereServed: NIOLockedValueBox<GameHome>
    /// Orders the `node` frames of the game's feed.
    var homeSequence = 0
    /// The access settings last told the game's subscribers (`announceAccess`), and how many times.
    var announcedAccess: GameAccessView?
    var accessSequence = 0
    /// When a request last used the game (a copy of a game another node serves is dropped after a
    /// while unused).
    var lastUsed: ContinuousClock.Instant = .now
    private var queue: [Pending] = []
    private var queueHead = 0

    /// Wraps a created or restored game and publishes its current version, whose public view the
    /// caller encoded (it answers the creator with the same bytes). The caller arms the schedule's
    /// timers (`armSchedule`) once the actor is in the directory.
    init(
        _ state: Rules, publicView: EncodedJSON, schedule: GameSchedule<Action>, home: GameHome = .here, record: String? = nil,
        host: GameHost<Game>
    ) throws(WireError) {
        recordID = record
        id = host.game.id(of: state)
        code = host.game.code(of: state)
        feed = Feed()
        self.host = host
        self.state = state
        self.schedule = schedule
        whereServed = NIOLockedValueBox(home)
        lastChange = host.clock.now
        encoded = publicView
        feed.publish(try host.game.feedVersion(of: state, publicView: publicView, topic: feed.topic))
        if let frame = Self.nodeFrame(home, sequence: 1, topic: feed.topic, host: host) {
            homeSequence = 1
            feed.publish(frame, as: .node)
        }
        if !schedule.access.isDefault {
            let view = schedule.access.view(kind: Game.kind, code: code.rawValue, host: state.owner)
            if let frame = Self.accessFrame(view, sequence: 1, topic: feed.topic) {
                announcedAccess = view
                accessSequence = 1
                feed.publish(frame, as: .access)
            }
        }
    }

    /// Tells the game's subscribers its access settings and host (an `access` event beside its views)
    /// when they changed since last told — once they are not the defaults: a game never private, locked
    /// or closed to some spectators says nothing, and its streams carry what they always did.
    func announceAccess() {
        // The usual game (never private, locked or limited) costs one comparison per group.
        guard announcedAccess != nil || !schedule.access.isDefault else { return }
        let view = accessView
        guard view != announcedAccess, let frame = Self.accessFrame(view, sequence: accessSequence + 1, topic: feed.topic)
        else { return }
        announcedAccess = view
        accessSequence += 1
        feed.publish(frame, as: .access)
    }

    /// The `access` event of a game's stream.
    static func accessFrame(_ view: GameAccessView, sequence: Int, topic: Int) -> FeedPresence? {
        guard let data = try? EncodedJSON.encoding(view) else { return nil }
        return FeedPresence(sequence: sequence, frame: PreparedMessage(json: EventMessage.frame(subscription: topic, event: .access, data: data)))
    }

    /// Which node serves the game now.
    nonisolated var home: GameHome { whereServed.withLockedValue { $0 } }

    /// Whether this node serves the game: fires its timers, and is where its players are sent.
    nonisolated var isServedHere: Bool { home == .here }

    /// The committed game and its encoded public view (read again first if another node announced a
    /// newer version of it: `catchUp()`).
    func current() async throws(WireError) -> (Rules, EncodedJSON) {
        lastUsed = .now
        await catchUp()
        guard !isDeleted else { throw host.game.notFound(id: id) }
        return (state, encoded)
    }

    /// Applies a player's action; answers once the result is durable. An action that seats the player
    /// is refused while the game is locked, and in a private game without the request's invitation
    /// (`RequestedAccess`).
    func perform(_ action: Action, by user: UserID) async throws(WireError) -> GameResult<Rules> {
        lastUsed = .now
        return try await submit(.action(action, user, invite: RequestedAccess.current?.invite)).get()
    }

    /// The host locks or unlocks the game (the host as the rules name it: `GameRules.owner`); anyone
    /// else is refused with `NOT_HOST`. Answers the settings as the change left them.
    func change(_ change: GameAccessChange, by user: UserID) async throws(WireError) -> GameAccessView {
        lastUsed = .now
        _ = try await submit(.access(change, user)).get()
        return accessView
    }

    /// Who may join and watch the game.
    var access: GameAccess { schedule.access }

    /// The game's access settings as clients see them.
    var accessView: GameAccessView { schedule.access.view(kind: Game.kind, code: code.rawValue, host: state.owner) }

    /// The access settings, after reading the game again if another node changed it.
    func currentAccess() async throws(WireError) -> GameAccessView {
        lastUsed = .now
        await catchUp()
        guard !isDeleted else { throw host.game.notFound(id: id) }
        return accessView
    }

    /// Refuses `user` anything but `NOT_HOST` unless they are the game's host.
    func checkHost(_ user: UserID, to verb: String) throws(WireError) {
        guard state.owner == user else { throw WireError(.notHost, "Only the host can \(verb) \(Game.kind.noun) \(code.rawValue).") }
    }

    /// The timer of scheduled action `key` went off. Applies the action if it is still scheduled and
    /// due; a stale timer (the action was replaced, cancelled or already applied) does nothing, and so
    /// does one on a node that no longer serves the game (the node that does fires it).
    func fire(_ key: String) async {
        guard isServedHere else { return }
        _ = await submit(.timer(key))
    }

    /// The operator closes the game (`/admin`): after the mutations already queued, its members hear
    /// `closed` with the reason on its stream, then the usual deletion frames, and it is deleted as an
    /// expired game is (a finished game stays in history, where it was filed as it finished).
    func close(reason: String) async throws(WireError) {
        _ = try await submit(.close(reason: reason)).get()
    }

    /// Arms a timer for every scheduled action (a restored game's, or a new game's) — on the node that
    /// serves the game only: the others would only lose the race to save it.
    func armSchedule() {
        guard isServedHere else { return }
        for entry in schedule.entries { arm(entry) }
    }

    /// Mutations waiting for the group in progress (for tests).
    var queuedMutations: Int { queue.count - queueHead }

    /// Subscribes to the game's versions; the current one arrives first.
    func subscribe(user: UserID?) async throws(WireError) -> FeedGrant {
        lastUsed = .now
        await watchFromHere()
        await catchUp()
        guard !isDeleted else { throw host.game.notFound(id: id) }
        do {
            try state.checkObserver(user)
        } catch {
            throw host.game.wireError(error)
        }
        try await admitSpectator(user)
        guard !isDeleted, let grant = feed.grant(user: user) else { throw host.game.notFound(id: id) }
        return grant
    }

    /// Refuses a viewer who is not a member of the game when its spectators policy does not admit
    /// them: `none` admits nobody, `signedIn` only users linked to an account (`hello {jwt}`).
    func admitSpectator(_ user: UserID?) async throws(WireError) {
        if let user, state.members.contains(user) { return }
        try await host.admitSpectator(user, under: schedule.access.spectators, to: "watch \(Game.kind.noun) \(code.rawValue)")
    }

    /// Ends `user`'s subscriptions to the game here, if the rules no longer let them watch it (a member
    /// of a game with secrets who was removed): each hears the end of its stream.
    func endStreams(ofBarred user: UserID) {
        guard (try? state.checkObserver(user)) == nil else { return }
        feed.cancel(user: user, with: [PreparedMessage(json: EventMessage.end(subscription: feed.topic))])
    }

    /// A subscription to the public view alone, for anyone: what every observer of the game sees alike,
    /// without the private frames (a grant for nobody gets none) and without the rules' observer check —
    /// for a game whose members' stream is theirs but whose public view hides nothing (a word lobby's,
    /// for spectators).
    func subscribePublic(viewer: UserID?) async throws(WireError) -> FeedGrant {
        lastUsed = .now
        await watchFromHere()
        await catchUp()
        guard !isDeleted else { throw host.game.notFound(id: id) }
        try await admitSpectator(viewer)
        guard !isDeleted, let grant = feed.grant(user: nil) else { throw host.game.notFound(id: id) }
        return grant
    }

    /// Deletes the game if its rules allow it now, nobody in it is connected, and it has not changed
    /// since `cutoff`. A game with mutations in flight is in use, not abandoned.
    func expireIfAbandoned(unchangedSince cutoff: Instant, presence: Presence) async -> Bool {
        guard !isBusy, !isDeleted, lastChange <= cutoff, state.mayExpire,
              !state.members.contains(where: presence.isConnected)
        else { return false }
        isBusy = true
        defer { handOver() }
        if host.store.sharedByNodes {
            // Another node may have changed the game since this node last read it: a copy that is only
            // stale here is not abandoned (the read adopts the newer version, and with it its time).
            guard case .success(false) = await reload(onlyIfNewer: true) else { return false }
            // And its players may be connected to another node (as the nodes last reported it; when
            // that cannot be read, the game stays).
            let seenSince = host.clock.now.adding(milliseconds: -3 * ParlorServices.presenceReportInterval)
            guard case .some(false) = try? await host.store.connectedElsewhere(state.members, seenSince: seenSince) else { return false }
        }
        do {
            // False when another node changed the game (or deleted it) since it was read: in use.
            return try await delete(reason: "expired")
        } catch {
            return false
        }
    }

    // MARK: Groups

    enum Work: Sendable {
        /// A player's action, with the invitation their request carried (for a private game).
        case action(Action, UserID, invite: String?)
        /// The host changes the game's access settings; always a group of its own.
        case access(GameAccessChange, UserID)
        /// A scheduled action's timer went off.
        case timer(String)
        /// The operator closes the game; always a group of its own.
        case close(reason: String)
    }

    enum Turn: Sendable {
        /// Another caller's group applied this mutation: here is its answer.
        case done(Result<GameResult<Rules>, WireError>)
        /// This caller runs the next group (its own mutation first).
        case lead
    }

    struct Pending {
        var work: Work
        /// Nil for the caller running the group, who takes its answer directly.
        var continuation: CheckedContinuation<Turn, Never>?
    }

    // `runGroup` and `save` are inlined into it: every async frame on a request's path comes out of its
    // task's allocator, and a deeper chain costs each request a fresh slab (measured in parlor-load
    // throughput: malloc_consolidate under StackAllocator::alloc). It is not inlined into its four
    // callers: one copy per game instead of four is 0.5 MB less machine code, and measured no slower
    // (docs/BENCHMARKS.md, "The first build without GRDB").
    @inline(never)
    private func submit(_ work: Work) async -> Result<GameResult<Rules>, WireError> {
        if isBusy {
            let turn = await withCheckedContinuation { (continuation: CheckedContinuation<Turn, Never>) in
                queue.append(Pending(work: work, continuation: continuation))
            }
            switch turn {
            case .done(let result): return result
            case .lead: break  // The game is still busy, on our behalf now: run the next group.
            }
        } else {
            isBusy = true
        }
        let result = await runGroup(leader: Pending(work: work, continuation: nil))
        handOver()
        return result
    }

    /// Frees the game, or passes it to the longest-waiting caller to run the next group.
    func handOver() {
        guard queueHead < queue.count else {
            emptyQueue()
            isBusy = false
            return
        }
        let next = queue[queueHead]
        queueHead += 1
        next.continuation?.resume(returning: .lead)
    }

    /// Takes the leader's mutation and everything queued behind it, applies them in order, saves the
    /// resulting game once, then publishes every new version and answers everyone. The applying is
    /// synchronous (`apply(_:)`), so only the group itself waits in this task's frame for the store.
    @inline(__always)
    private func runGroup(leader: Pending) async -> Result<GameResult<Rules>, WireError> {
        guard !isDeleted else { return .failure(host.game.notFound(id: id)) }
        if case .access(let change, let user) = leader.work {
            return await changeAccess(change, by: user)
        }
        if case .close(let reason) = leader.work {
            var attempts = 0
            while true {
                do throws(WireError) {
                    if try await delete(reason: "closed by the operator: \(reason)", closing: reason) { return .success(.deleted(reply: nil)) }
                } catch {
                    return .failure(error)
                }
                attempts += 1
                if let failure = await reloadAfterConflict(attempts: attempts) { return .failure(failure) }
            }
        }
        let now = host.clock.now
        let group = Group(leader: leader, draft: Draft(state: state, encoded: encoded, schedule: schedule))
        var attempts = 0
        attempting: while true {
            switch apply(group, at: now) {
            case .delete(let reply):
                // Whatever queued behind the deletion finds the game gone (or still there if the
                // deletion failed) when it leads the next group.
                do throws(WireError) {
                    guard try await delete(reason: "its rules deleted it") else {
                        // Another node changed the game first: apply the group again on top of its
                        // version (whose rules may no longer delete it).
                        attempts += 1
                        if let failure = await reloadAfterConflict(attempts: attempts) {
                            group.results.append(.failure(failure))
                            break attempting
                        }
                        group.restart(on: Draft(state: state, encoded: encoded, schedule: schedule))
                        continue attempting
                    }
                    group.results.append(.success(.deleted(reply: reply)))
                } catch {
                    group.results.append(.failure(error))
                }
            case .save:
                guard let firstChange = group.draft.firstChange else {
                    // Nothing to save. A refusal judged on a copy another node has moved on (a player
                    // who joined there a moment ago) must not stand: read the game, and when it is
                    // newer, apply the group again on top of it. (A group that changed something has
                    // that checked by its version-checked save instead.)
                    guard await mayBeStale(group, attempts: attempts) else { break attempting }
                    attempts += 1
                    group.restart(on: Draft(state: state, encoded: encoded, schedule: schedule))
                    continue attempting
                }
                guard await save(group, at: now, failing: firstChange) == .conflict else { break attempting }
                // Another node saved this game first: take its version and apply the group again on
                // top of it (the reducer is pure, and nothing of the group was adopted).
                attempts += 1
                if let failure = await reloadAfterConflict(attempts: attempts) {
                    for failed in firstChange..<group.results.count { group.results[failed] = .failure(failure) }
                    break attempting
                }
                group.restart(on: Draft(state: state, encoded: encoded, schedule: schedule))
                continue attempting
            }
            break attempting
        }
        for entry in group.early { arm(entry) }
        resume(group.members, with: group.results)
        return group.results[0]
    }

    /// Saves the game with its access settings changed (the same version: the rules did not change,
    /// as a schedule-only change saves), after checking that `user` is its host.
    private func changeAccess(_ change: GameAccessChange, by user: UserID) async -> Result<GameResult<Rules>, WireError> {
        var attempts = 0
        while true {
            do throws(WireError) {
                try checkHost(user, to: change.verb)
            } catch {
                return .failure(error)
            }
            var changed = schedule
            changed.access = change.applied(to: schedule.access)
            guard changed != schedule else { return .success(.game(state, encoded, reply: nil)) }
            do {
                try await host.store.saveGame(storedGame(Draft(state: state, encoded: encoded, schedule: changed)))
            } catch where error.kind == .conflict {
                attempts += 1
                if let failure = await reloadAfterConflict(attempts: attempts) { return .failure(failure) }
                continue
            } catch {
                return .failure(host.storeFailure(error, operation: "save the access of \(Game.kind.noun) \(id)"))
            }
            schedule = changed
            lastChange = host.clock.now
            announceAccess()
            return .success(.game(state, encoded, reply: nil))
        }
    }

    /// Whether a group that changed nothing refused something on a copy that was stale: then the newer
    /// version another node stored has been read and adopted, and the group should be applied again.
    private func mayBeStale(_ group: Group, attempts: Int) async -> Bool {
        guard host.store.sharedByNodes, attempts < Self.maxConflictAttempts,
              group.results.contains(where: { if case .failure = $0 { true } else { false } })
        else { return false }
        host.cluster?.reloaded(.refused)
        guard case .success(true) = await reload(onlyIfNewer: true) else { return false }
        return true
    }

    /// Saves a group's draft; adopts, publishes and carries out its effects once durable. On failure
    /// nothing of the group from its first change on is kept — answers computed on top of the unsaved
    /// game would describe a game that does not exist — and fired timers try again shortly, so a
    /// scheduled action (a round's end) is never lost to a full disk.
    @inline(__always)
    private func save(_ group: Group, at now: Instant, failing firstChange: Int) async -> SaveOutcome {
        do {
            try await host.store.saveGame(storedGame(group.draft))
        } catch where error.kind == .conflict {
            return .conflict
        } catch {
            let failure = host.storeFailure(error, operation: "save \(Game.kind.noun) \(id)")
            for failed in firstChange..<group.results.count { group.results[failed] = .failure(failure) }
            let retry = now.adding(milliseconds: GameHost<Game>.retryMilliseconds)
            for entry in group.draft.fired {
                host.logger.warning(
                    "Scheduled action not saved; retrying", metadata: ["\(Game.kind.noun)": "\(id)", "schedule": "\(entry.key)"])
                arm(ScheduledAction(key: entry.key, due: max(retry, entry.due), action: entry.action))
            }
            return .failed
        }
        adopt(group.draft)
        return .saved
    }

    enum SaveOutcome {
        case saved
        case failed
        /// Another node saved the game first; nothing was written.
        case conflict
    }

    /// The draft as the store keeps it.
    private func storedGame(_ draft: Draft) throws(StoreError) -> StoredGame {
        StoredGame(
            kind: Game.kind, id: id, code: code.rawValue, version: draft.state.version,
            state: .value(StoredGameState<Game>(draft.state)), schedule: try draft.schedule.json(), archive: draft.archive,
            replacing: .version(state.version), servedBy: home.otherNode, record: try recordWrite(draft))
    }

    /// Makes a saved draft the committed game: publishes its versions and carries out its effects.
    private func adopt(_ draft: Draft) {
        let previous = state
        state = draft.state
        encoded = draft.encoded
        schedule = draft.schedule
        lastChange = host.clock.now
        for version in draft.versions { feed.publish(version) }
        // After the versions, so a new host is told with the view that names them.
        announceAccess()
        // After the versions, so a newly seated player's presence follows the view that seats them.
        host.adopted(state, replacing: previous, by: self)
        for user in draft.revoked {
            feed.cancel(user: user, with: [PreparedMessage(json: EventMessage.end(subscription: feed.topic))])
        }
        for entry in draft.scheduled where isServedHere { arm(entry) }
    }

    /// Moves every queued mutation into the group being built (they run in arrival order).
    func takeQueued(into group: inout [Pending]) {
        guard queueHead < queue.count else { return }
        group.append(contentsOf: queue[queueHead...])
        emptyQueue()
    }

    /// Keeps a small queue's storage for the next burst; lets a large one go.
    private func emptyQueue() {
        queue.removeAll(keepingCapacity: queue.capacity <= 64)
        queueHead = 0
    }

    /// Returns mutations taken into a group to the front of the queue, in order.
    func putBack(_ pending: ArraySlice<Pending>) {
        queue.replaceSubrange(queueHead..<queueHead, with: pending)
    }

    /// Answers every member of a group but its leader, whose answer is returned.
    private func resume(_ members: [Pending], with results: [Result<GameResult<Rules>, WireError>]) {
        for index in results.indices {
            members[index].continuation?.resume(returning: .done(results[index]))
        }
    }

    /// Saves that lose a race to another node before one wins; past it the caller is told to try again.
    static var maxConflictAttempts: Int { 10 }

    /// Deletes the game as of its committed version; false when another node changed or deleted it
    /// first (nothing was deleted: the caller reads it again). `closing` is the operator's reason when
    /// they closed the game: its stream says so first.
    private func delete(reason: String, closing: String? = nil) async throws(WireError) -> Bool {
        do {
            try await host.store.deleteGame(Game.kind, id: id, version: state.version)
        } catch where error.kind == .conflict {
            return false
        } catch {
            throw host.storeFailure(error, operation: "delete \(Game.kind.noun) \(id)")
        }
        forget(reason: reason, closing: closing)
        return true
    }

    /// The game is gone from the store: end its feed (after `closed` with the operator's reason, when
    /// they closed it) and take it out of the directory.
    func forget(reason: String, closing: String? = nil) {
        isDeleted = true
        host.logger.info("Game deleted", metadata: ["kind": "\(Game.kind)", "id": "\(id)", "reason": "\(reason)"])
        let closed = closing.map { [PreparedMessage(json: EventMessage.closed(subscription: feed.topic, reason: $0))] } ?? []
        feed.end(with: closed + host.game.deletionFrames(topic: feed.topic))
        host.removed(self)
    }

    private nonisolated func arm(_ entry: ScheduledAction<Action>) {
        let key = entry.key
        host.timers.arm(at: entry.due) { [self] in await self.fire(key) }
    }
}

/// What a game's actor answers a mutation with.
enum GameResult<Rules: GameRules>: Sendable {
    /// The game after the mutation (unchanged when nothing changed), its public view as encoded for
    /// that version, and the rules' reply.
    case game(Rules, EncodedJSON, reply: Rules.Reply?)
    /// The mutation deleted the game.
    case deleted(reply: Rules.Reply?)

    var reply: Rules.Reply? {
        switch self {
        case .game(_, _, let reply), .deleted(let reply): reply
        }
    }
}

/// A live game state with its game's stored form, as the store receives it.
struct StoredGameState<Game: GameDefinition>: StorableState {
    let state: Game.Rules

    init(_ state: Game.Rules) { self.state = state }

    func storedJSON() throws(StoreError) -> String { try Game.storedJSON(state) }

    /// `stored` back as the game's rules value; `what` and `location` name it if it cannot be read.
    static func state(of stored: StoredState, what: String, location: String) throws(StoreError) -> Game.Rules {
        switch stored {
        case .value(let value as StoredGameState<Game>):
            return value.state
        case .value:
            throw StoreError(.failed, "The store returned the \(what) as another kind of game.")
        case .json(let json):
            return try StoredJSON.decode(json: json, as: { try Game.decodeStored($0) }, what: what, location: location)
        }
    }
}
