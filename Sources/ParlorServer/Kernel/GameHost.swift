import Logging
import ParlorRules
import ParlorWire

/// Runs every live game of one kind: creates them, finds them by code or id, brings them back from the
/// store at start-up with their timers, and expires abandoned ones. A game's operations are written
/// against its host; the host is written once, for every game.
final class GameHost<Game: GameDefinition>: Sendable {
    typealias Rules = Game.Rules

    let game: Game
    let store: any ParlorStore
    /// Whether new games begin a record (`ServerConfiguration.gameRecords`).
    let keepsRecords: Bool
    let clock: any ParlorClock
    let logger: Logger
    let timers: GameTimers
    let invites: GameInvites
    let quota: GameQuota
    let presence: Presence
    /// Reloads for `/metrics`, when the server keeps them.
    let cluster: ClusterMetrics?
    /// This node of a cluster; nil on a node of its own.
    let node: ClusterNode?
    /// Who of each game's members is connected, on the game's feed.
    let gamePresence: GamePresence
    let directory: GameDirectory<Game.Code, GameActor<Game>>
    /// Each live game's stage, for `/metrics`.
    let stages = GameStages()
    /// Rematches under way (for games whose rules are `Rematchable`).
    let rematches = RematchStarts()

    /// How long a scheduled action that could not be saved waits before it is tried again.
    static var retryMilliseconds: Int64 { 1000 }

    init(_ game: Game, kernel: Kernel) {
        self.game = game
        store = kernel.store
        keepsRecords = kernel.configuration.gameRecords
        clock = kernel.clock
        logger = kernel.logger
        timers = kernel.timers
        invites = kernel.invites
        quota = kernel.quota
        presence = kernel.presence
        cluster = kernel.cluster
        node = kernel.node
        gamePresence = GamePresence(presence: kernel.presence)
        directory = GameDirectory(codeSpace: game.codeSpace, maxGames: game.maxGames, kind: Game.kind)
    }

    // MARK: Creating and finding

    /// A new game: `make` builds it from its id and code at the clock's `now`. It counts against its
    /// owner's quota of live games (`QUOTA_EXCEEDED` past it), and is stored before anyone hears of
    /// it, then its first version is published. A code another node already gave out (the shared
    /// database refuses it as a `.conflict`) is swapped for another, a few times. Its access settings
    /// are those the request asked for (`private`, `spectators`: `RequestedAccess`), or `access`.
    func create(
        access: GameAccess? = nil,
        _ make: (_ id: String, _ code: Game.Code, _ now: Instant) throws(Rules.Failure) -> Rules, attempt: Int = 1
    ) async throws(WireError) -> (actor: GameActor<Game>, state: Rules, publicView: EncodedJSON) {
        let schedule: GameSchedule<Rules.Action>
        if let access {
            schedule = GameSchedule(access: access)
        } else {
            schedule = GameSchedule(access: try GameAccess(requested: RequestedAccess.current))
        }
        let code = try directory.reserveCode()
        let id = directory.newID { game.newID(code: code) }
        let state: Rules
        let place: GameQuota.Reservation
        do throws(WireError) {
            do {
                state = try make(id, code, clock.now)
            } catch {
                throw game.wireError(error)
            }
            place = try await quota.reserve(for: state.owner)
        } catch {
            directory.release(code)
            throw error
        }
        let record: GameRecordWrite?
        do {
            record = keepsRecords ? try GameRecordOpening.begin(state, of: Game.self, access: schedule.access, at: clock.now) : nil
            try await store.saveGame(StoredGame(
                kind: Game.kind, id: id, code: code.rawValue, version: state.version,
                state: .value(StoredGameState<Game>(state)), schedule: try schedule.json(), replacing: .nothing, record: record))
        } catch {
            directory.release(code)
            quota.cancel(place)
            if error.kind == .conflict, attempt < Self.maxCodeAttempts {
                return try await create(access: schedule.access, make, attempt: attempt + 1)
            }
            throw storeFailure(error, operation: "create \(Game.kind.noun) \(id)")
        }
        let actor: GameActor<Game>
        let view: EncodedJSON
        do {
            view = try game.encodePublicView(state, at: clock.now)
            actor = try GameActor(state, publicView: view, schedule: schedule, record: record?.id, host: self)
        } catch {
            directory.release(code)
            quota.cancel(place)
            throw error
        }
        directory.install(actor, id: id, code: code)
        quota.fill(place, with: actor)
        reportPlayers(of: actor, state.playing)
        gamePresence.track(actor.id, feed: actor.feed, members: state.members)
        stages.set(id, to: state.stage)
        logger.info("Game created", metadata: ["kind": "\(Game.kind)", "id": "\(id)", "code": "\(code.rawValue)"])
        return (actor, state, view)
    }

    /// Codes tried for one new game before giving up: another node holding a random code twice in a
    /// row is already unlikely.
    static var maxCodeAttempts: Int { 4 }

    /// The live game with the code a client sent. A code this node does not hold may belong to a game
    /// another node created in a shared store: it is looked up there and adopted.
    func game(code text: String) async throws(WireError) -> GameActor<Game> {
        let code = try game.parse(code: text)
        if let id = directory.id(code: code), let actor = directory.game(id: id) {
            if node != nil { await serve(actor) }
            return actor
        }
        guard store.sharedByNodes, let actor = try await adopt(
            { () async throws(StoreError) in try await store.loadGame(Game.kind, code: code.rawValue) }, naming: "code \(code.rawValue)")
        else { throw game.notFound(code: code) }
        return actor
    }

    /// The live game with this id, looked up in a shared store when this node does not hold it.
    func game(id: String) async throws(WireError) -> GameActor<Game> {
        if let actor = directory.game(id: id) {
            if node != nil { await serve(actor) }
            return actor
        }
        guard store.sharedByNodes, let actor = try await adopt(
            { () async throws(StoreError) in try await store.loadGame(Game.kind, id: id) }, naming: "id \(id)")
        else { throw game.notFound(id: id) }
        return actor
    }

    /// The game `load` finds in the store, adopted by this node (nil when there is none).
    private func adopt(
        _ load: () async throws(StoreError) -> StoredGame?, naming what: String
    ) async throws(WireError) -> GameActor<Game>? {
        do {
            guard let stored = try await load() else { return nil }
            let actor = try await install(stored)
            cluster?.reloaded(.adopted)
            logger.info("Game adopted from the store", metadata: ["kind": "\(Game.kind)", "id": "\(actor.id)", "version": "\(stored.version)"])
            return actor
        } catch {
            throw storeFailure(error, operation: "look up the \(Game.kind.noun) with \(what)")
        }
    }

    /// A stored game made live on this node, with its schedule armed (where it is served here); the
    /// actor already in the directory when another caller installed the game first. In a cluster, a
    /// game no serving node serves is taken on here.
    @discardableResult
    func install(_ stored: StoredGame) async throws(StoreError) -> GameActor<Game> {
        let state = try StoredGameState<Game>.state(of: stored.state, what: "\(Game.kind.noun) \(stored.id)", location: stored.location)
        let schedule = try StoredJSON.decode(
            json: stored.schedule, as: { try GameSchedule<Rules.Action>(json: $0) }, what: "schedule of \(Game.kind.noun) \(stored.id)",
            location: stored.location)
        let home: GameHome = if let node { await node.home(servedBy: stored.servedBy) ?? .unclaimed } else { .here }
        let made: GameActor<Game>
        do {
            made = try GameActor(
                state, publicView: try game.encodePublicView(state, at: clock.now), schedule: schedule, home: home,
                record: stored.record?.id, host: self)
        } catch {
            throw StoreError(.failed, "The \(Game.kind.noun) \(stored.id) in \(stored.location) cannot be shown: \(error.message)")
        }
        let (actor, installed) = directory.adopt(made, id: made.id, code: made.code)
        guard installed else { return actor }
        quota.count(actor, owner: state.owner)
        reportPlayers(of: actor, state.playing)
        gamePresence.track(actor.id, feed: actor.feed, members: state.members)
        stages.set(actor.id, to: state.stage)
        await actor.armSchedule()
        if home == .unclaimed { await claim(actor, seen: stored.servedBy) }
        return actor
    }

    /// `user`'s finished games of this kind, newest first.
    func history(of user: UserID, before: Instant?, limit: Int) async throws(WireError) -> [Rules] {
        let states: [StoredState]
        do {
            states = try await store.history(Game.kind, of: user, before: before, limit: limit)
        } catch {
            throw storeFailure(error, operation: "list the finished \(Game.kind.plural) of \(user)")
        }
        do {
            return try states.map { stored throws(StoreError) in try StoredGameState<Game>.state(of: stored, what: "finished \(Game.kind.noun)", location: "history") }
        } catch {
            throw storeFailure(error, operation: "read the finished \(Game.kind.plural) of \(user)")
        }
    }

    // MARK: For the actors

    /// Logs a store failure with its cause and turns it into the `INTERNAL` the caller sees.
    func storeFailure(_ error: StoreError, operation: String) -> WireError {
        logger.error("Store failure", metadata: ["operation": "\(operation)", "cause": "\(error.reason)"])
        return error.wireError(fallback: "The server could not save the change; nothing was changed. Try again.")
    }

    /// A copy of a game another node serves left this node's memory (nobody used it for a while).
    func evicted(_ actor: GameActor<Game>) {
        removed(actor)
        cluster?.evicted()
    }

    /// A game deleted itself: take it out of the directory, free its code and its owner's quota.
    func removed(_ actor: GameActor<Game>) {
        directory.remove(actor, id: actor.id, code: actor.code)
        quota.uncount(actor)
        reportPlayers(of: actor, [])
        gamePresence.untrack(actor.id)
        stages.remove(actor.id)
    }

    /// A game adopted (and published) a new version: if who is playing it changed, presence hears of
    /// it; if its members changed, its stream's presence follows.
    func adopted(_ state: Rules, replacing previous: Rules, by actor: GameActor<Game>) {
        let members = state.members
        if members != previous.members { gamePresence.track(actor.id, feed: actor.feed, members: members) }
        let stage = state.stage
        if stage != previous.stage {
            stages.set(actor.id, to: stage)
            if stage == .finished {
                logger.info(
                    "Game finished",
                    metadata: ["kind": "\(Game.kind)", "id": "\(actor.id)", "code": "\(actor.code.rawValue)", "players": "\(members.count)"])
            }
        }
        let playing = state.playing
        guard playing != previous.playing else { return }
        reportPlayers(of: actor, playing)
    }

    private func reportPlayers(of actor: GameActor<Game>, _ players: [UserID]) {
        presence.setPlayers(
            of: "\(Game.kind.name)/\(actor.id)", at: Presence.Place(kind: Game.kind.name, code: actor.code.rawValue), to: players)
    }
}

extension GameHost: HostedGame {
    var kind: GameKind { Game.kind }


    var count: Int { directory.count }

    var countsByStage: [GameStage: Int] { stages.counts }

    var subscriberCount: Int { directory.all.reduce(0) { $0 + $1.feed.subscriberCount } }

    /// The games the server ran, and — for a kind whose games are uploaded too — the uploaded ones: at
    /// most `limit` of each, which `listHistory` merges with every kind's by finish.
    func playedGames(of user: UserID, before: Instant?, limit: Int) async throws(WireError) -> [PlayedGame] {
        var played = try await history(of: user, before: before, limit: limit).compactMap { game.playedGame($0, for: user) }
        guard game.listsUploads else { return played }
        let uploaded = try await logger.storing("list the uploaded \(Game.kind.plural) of \(user)") { () async throws(StoreError) in
            try await store.uploadedGames(Game.kind, of: user, before: before, limit: limit)
        }
        for upload in uploaded {
            do {
                if let entry = try game.playedGame(uploaded: upload, for: user) { played.append(entry) }
            } catch {
                logger.error("Store failure", metadata: ["operation": "read uploaded game \(upload.id)", "cause": "\(error.reason)"])
                throw WireError.internalError("The server could not read \(Game.kind.noun) \(upload.id).")
            }
        }
        return played
    }

    /// Brings back every stored game of this kind, each with its schedule: a scheduled action whose time
    /// passed while the server was down fires as soon as the timers run.
    func restore() async throws {
        // In a cluster, only the games this node serves (after a restart); the rest are read when needed.
        let stored = if let node { try await node.store.gamesServedHere(Game.kind) } else { try await store.loadGames(Game.kind) }
        for game in stored {
            try await install(game)
        }
        logger.info("Games restored", metadata: ["kind": "\(Game.kind)", "count": "\(directory.count)"])
    }

    /// Another node committed a version of a game (`GameChange.deleted`: deleted it).
    func changedElsewhere(_ change: GameChange) {
        guard let actor = directory.game(id: change.id) else { return }
        // Only games someone here watches are read at once; another is marked, and read when next used
        // (a deleted one is let go at once: nobody should hold a copy of a game that is gone).
        guard actor.feed.subscriberCount > 0 || change.version == GameChange.deleted else {
            Task { await actor.noteAnnounced(change.version) }
            return
        }
        Task {
            guard await actor.refresh(with: change) else { return }
            let micros = GameChange.wallClockMicroseconds() - change.committedAt
            cluster?.fanOutLatency.recordNanoseconds(max(0, micros) * 1000)
        }
    }

    func takeOverdue(id: String) async {
        if let actor = directory.game(id: id) {
            // Held here, but perhaps as a copy from before the action was scheduled.
            await actor.noteAnnounced(nil)
            await actor.catchUp()
            await serve(actor)
            await actor.armSchedule()
        } else {
            _ = try? await game(id: id)
        }
    }

    /// After the listening connection was lost: announcements may have been missed, so watched games are
    /// read now and the others when next used.
    func refreshWatched() async {
        for actor in directory.all {
            if actor.feed.subscriberCount > 0 {
                await actor.refreshAfterGap()
            } else {
                await actor.noteAnnounced(nil)
            }
        }
    }

    func expireAbandoned(_ cutoffs: ExpiryCutoffs, presence: Presence) async -> Int {
        var expired = 0
        for actor in directory.all {
            // A game that someone joins between these two calls has changed since either cutoff, so the
            // actor's own check keeps it.
            guard let (state, _) = try? await actor.current() else { continue }
            let cutoff = cutoffs.cutoff(forMembers: state.members.count)
            if await actor.expireIfAbandoned(unchangedSince: cutoff, presence: presence) { expired += 1 }
        }
        return expired
    }
}
