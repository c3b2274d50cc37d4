import Logging
import ParlorRules
import ParlorWire

/// The games Parlor hosts. Adding a game is a module here (its rules, wire types and registration
/// live in their own folders).
public enum ParlorGames {
    static var standard: [any GameModule] { [RummyModule(), WordLobbyModule(), DartsModule(), PhotoQuizModule(), TicTacToeModule()] }
}

/// Everything a session or an HTTP route needs, built once at start-up.
final class ParlorServices: Sendable {
    let configuration: ServerConfiguration
    let logger: Logger
    let clock: any ParlorClock
    /// The store, watched: `/healthz` asks it whether it can write.
    let store: MonitoredStore
    let tokens: SessionTokens
    /// Signing in: anonymously, by token, or with an account's JWT (`configuration.auth`).
    let signIn: AccountSignIn
    /// Requests per second per user and per address, across the WebSocket and HTTP.
    let requestLimiter: RequestLimiter
    /// Live games per owner, across every kind.
    let quota: GameQuota
    /// What `/metrics` requires, when the operator set one.
    let adminToken: AdminToken?
    /// Who is online and playing where, settled for friends.
    let presence: Presence
    let metrics = ServerMetrics()
    /// The open sessions on `/ws`, for the operator's page.
    let connections: ConnectionRegistry
    /// What `/admin` and its API require: `--admin-token`, or the one made at start-up.
    let adminPageToken: AdminToken
    /// Operations per second and the store's writes per second, over the last minute.
    let rates = AdminRates()
    /// Connections and errors, summarized in the log once per interval.
    let activity: ActivityLog
    let timers: GameTimers
    /// Every kind of game the server hosts.
    let games: [any HostedGame]
    /// The feeds games serve beside their games' own.
    let gameFeeds: [Feed]
    /// What games run in the background while the server runs.
    let background: [BackgroundWork]
    /// Every operation on the WebSocket (and, marked callable, at `POST /functions/{name}`).
    let operations: OperationTable
    /// The operations marked callable, by name.
    let callable: OperationTable
    /// The games' and the accounts' REST routes.
    let routes: [HTTPRoute]
    /// Profiles, friends and avatars.
    let accounts: AccountsService
    /// The browser client's files, ready to serve.
    let webClient: WebClientSite
    /// This node of a cluster (`--postgres`); nil on a node of its own.
    let node: ClusterNode?

    /// Opens the services over `store`: reads the token secret, registers every game (a game that
    /// cannot run with its settings, or whose stored records cannot be read, stops the server here) and brings every stored
    /// game back into an actor of its own, its scheduled actions armed.
    init(
        configuration: ServerConfiguration, store: any ParlorStore, clock: any ParlorClock, logger: Logger,
        games modules: [any GameModule]
    ) async throws {
        self.configuration = configuration
        self.logger = logger
        self.clock = clock
        let connections = ConnectionRegistry()
        self.connections = connections
        activity = ActivityLog(logger: logger)
        let store = MonitoredStore(store, clock: clock, probeInterval: configuration.admin.storeProbeInterval)
        self.store = store
        let limits = configuration.limits
        requestLimiter = RequestLimiter(
            user: .init(burst: limits.requestBurst, perSecond: limits.requestsPerSecond),
            address: .init(burst: limits.addressRequestBurst, perSecond: limits.addressRequestsPerSecond),
            exemptions: limits.exemptAddresses)
        quota = GameQuota(limit: limits.maxGamesPerUser)
        webClient = try WebClientSite.bundled()
        adminToken = configuration.admin.token.map(AdminToken.init)
        // With neither, the page's API stays shut: a token nobody was told.
        adminPageToken = AdminToken(configuration.admin.token ?? configuration.admin.pageToken ?? AdminToken.generate())
        let secret = try await store.serverSecret()
        tokens = SessionTokens(secret: secret)
        signIn = AccountSignIn(configuration: configuration.auth, tokens: tokens, store: store, clock: clock, logger: logger)
        timers = GameTimers(clock: clock)
        presence = Presence(clock: clock, timers: timers)
        #if PostgreSQL
        if let postgres = store.backend.sharedDatabase {
            postgres.attach(metrics.cluster)
            let node = ClusterNode(store: postgres, configuration: configuration.cluster, logger: logger)
            try await node.join()
            self.node = node
        } else {
            node = nil
        }
        #else
        node = nil
        #endif
        let kernel = Kernel(
            configuration: configuration, store: store, clock: clock, logger: logger, timers: timers,
            quota: quota, presence: presence, cluster: metrics.cluster, node: node, invites: GameInvites(secret: secret))
        var registrations: [GameRegistration] = []
        for module in modules {
            registrations.append(try await module.register(in: kernel))
        }
        games = registrations.map(\.game)
        gameFeeds = registrations.flatMap(\.feeds)
        background = registrations.flatMap(\.background)
        // Avatars live beside the database (in it, when that is PostgreSQL: any node serves them), or in
        // memory when nothing is persisted.
        let storage: any ObjectStorage =
            if let shared = Self.sharedStorage(kernel, bucket: "avatars") {
                shared
            } else if configuration.persist {
                DirectoryStorage(root: configuration.dataDirectory + "/avatars")
            } else {
                MemoryStorage()
            }
        accounts = AccountsService(
            store: store, storage: storage, presence: presence, clock: clock, logger: logger,
            maxFriendships: limits.maxFriendships, profileStats: registrations.lazy.compactMap(\.profileStats).first)
        let records = GameRecordOperation.handler(games)
        let link = LinkAccountOperation.handler(signIn)
        let entries = SessionOperations.entries + registrations.flatMap(\.operations) + accounts.operations
            + [HistoryOperation.handler(games).entry(), records.entry(), link.entry()] + GameAccessOperations.entries(games)
        operations = OperationTable(entries)
        callable = OperationTable(entries.filter(\.callable))
        let accountSignIn = signIn
        let playerData = PlayerData(accounts: accounts, games: games) { user in
            Self.closeDeletedAccount(user, signIn: accountSignIn, connections: connections)
        }
        routes = registrations.flatMap(\.routes) + playerData.routes + accounts.routes + records.routes + GameRecordOperation.exportRoutes(games) + link.routes
        for game in games {
            try await game.restore()
        }
    }

    /// Runs the games' timers and their background work until the calling task is cancelled (the server
    /// cancels it as it stops, which cancels every pending timer).
    func runTimers() async {
        await withDiscardingTaskGroup { group in
            group.addTask { await self.timers.run() }
            group.addTask { await self.activity.run(every: self.configuration.activitySummaryInterval) }
            if let node {
                group.addTask { await self.listen(as: node) }
                group.addTask { await self.takeOverdueTimers(from: node.store) }
                group.addTask { await self.every(Self.presenceReportInterval) { await self.reportPresence(to: node.store) } }
                group.addTask { await self.beat(as: node) }
            }
            for work in background {
                group.addTask { await work() }
            }
        }
    }

    /// Uploaded files of `bucket` in the shared database on a node of a cluster, so any node serves
    /// what another received; nil on a node of its own (and in a build without the PostgreSQL trait).
    private static func sharedStorage(_ kernel: Kernel, bucket: String) -> (any ObjectStorage)? {
        #if PostgreSQL
        return kernel.sharedDatabase.map { PostgresObjectStorage(store: $0, bucket: bucket) }
        #else
        return nil
        #endif
    }

    /// Hears the other nodes: the versions they commit of games this node serves or watches, where
    /// games moved, which games they deleted.
    private func listen(as node: ClusterNode) async {
        let games = gamesByKind
        let all = self.games
        await node.store.listen(ClusterEvents(
            changed: { change in games[change.kind]?.changedElsewhere(change) },
            home: { change in
                switch change {
                case .claimed(_, let kind, _), .deleted(_, let kind, _): await games[kind]?.homeChanged(change)
                case .released(let released):
                    node.released(by: released)
                    for game in all { await game.homeChanged(change) }
                case .accountDeleted(let deleter, let user):
                    let closed = Self.closeDeletedAccount(user, signIn: self.signIn, connections: self.connections)
                    self.logger.notice(
                        "Closed the connections of an account deleted on another node",
                        metadata: ["user": "\(user)", "node": "\(deleter)", "connections": "\(closed)"])
                }
            },
            resumed: {
                self.signIn.noticesResumed()
                for game in all { await game.refreshWatched() }
                await self.closeAccountsDeletedUnheard()
            }))
    }

    /// After a while this node could not hear the other nodes: an account deleted meanwhile was never
    /// announced here, so each user with an open connection on this node is asked of the store (once
    /// per user, `AccountSignIn.refuseDeleted`), and a deleted one's connections are closed as the
    /// notice would have closed them.
    private func closeAccountsDeletedUnheard() async {
        var users = Set<UserID>()
        for session in connections.all {
            if let user = session.user { users.insert(user) }
        }
        var closed = 0
        for user in users {
            do {
                try await signIn.refuseDeleted(user)
            } catch {
                closed += Self.closeDeletedAccount(user, signIn: signIn, connections: connections)
            }
        }
        if closed > 0 {
            logger.notice(
                "Closed the connections of accounts deleted while the other nodes could not be heard",
                metadata: ["connections": "\(closed)"])
        }
    }

    /// A deleted account, here or on another node: its tokens are refused from now on, and its open
    /// connections on this node are closed (1008, `PlayerData.closeReason`). Returns how many were.
    @discardableResult
    static func closeDeletedAccount(_ user: UserID, signIn: AccountSignIn, connections: ConnectionRegistry) -> Int {
        signIn.accountDeleted(user)
        let sessions = connections.all.filter { $0.user == user }
        for session in sessions { session.disconnect(reason: PlayerData.closeReason) }
        return sessions.count
    }

    /// The heartbeat: every `cluster.heartbeat`, records that this node is alive and reads which nodes
    /// are; then takes on the watched games whose node stopped serving, hears the watch buckets of the
    /// games watched here that another node serves, and now and then drops unused copies.
    private func beat(as node: ClusterNode) async {
        let interval = configuration.cluster.heartbeat
        let idle = configuration.cluster.idleCopyLifetime
        var lastEviction = ContinuousClock.now
        while !Task.isCancelled {
            do {
                try await Task.sleep(for: interval)
            } catch {
                return
            }
            guard await node.beat() else { continue }
            var buckets = Set<Int>()
            for game in games { buckets.formUnion(await game.reviewHomes()) }
            await node.rewatch(buckets)
            if ContinuousClock.now - lastEviction >= idle / 2 {
                lastEviction = .now
                for game in games { _ = await game.evictIdleCopies(idle: idle) }
            }
        }
    }

    /// Every `overdueSweepInterval`, takes on the games whose scheduled actions are overdue in the
    /// database by more than `overdueGrace`: a node holding a game fires its timers on time and saves
    /// within milliseconds, so what is still due after the grace belongs to a node that died (or lost
    /// the database meanwhile). Each node sweeps; the first to save the action wins, as for any timer.
    private func takeOverdueTimers(from postgres: any ClusterDatabase) async {
        let games = gamesByKind
        await every(Self.overdueSweepInterval) {
            let cutoff = self.clock.now.adding(milliseconds: -Self.overdueGrace)
            guard let overdue = try? await postgres.overdueGames(dueBefore: cutoff, limit: 100) else { return }
            for (kind, id) in overdue { await games[kind]?.takeOverdue(id: id) }
        }
    }

    /// Each game kind's host by the kind's name, as other nodes' announcements and the database name them.
    private var gamesByKind: [String: any HostedGame] {
        Dictionary(games.map { ($0.kind.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Runs `body` every `milliseconds` on the server's clock until the calling task is cancelled.
    private func every(_ milliseconds: Int64, _ body: () async -> Void) async {
        while !Task.isCancelled {
            do {
                try await clock.sleep(until: clock.now.adding(milliseconds: milliseconds))
            } catch {
                return
            }
            await body()
        }
    }

    /// Reports who is connected to this node now (a node of a cluster; nothing otherwise), so that the
    /// other nodes do not expire the games these players are in.
    func reportPresence() async {
        guard let node else { return }
        await reportPresence(to: node.store)
    }

    private func reportPresence(to postgres: any ClusterDatabase) async {
        do {
            try await postgres.reportConnected(presence.connectedUserIDs, at: clock.now)
        } catch {
            logger.warning("Could not report who is connected to this node", metadata: ["cause": "\(error.reason)"])
        }
    }

    /// Milliseconds between reports of who is connected; a report older than three of them is stale.
    static let presenceReportInterval: Int64 = 10_000

    /// Milliseconds between looks for overdue scheduled actions, and how late one must be to be taken.
    static let overdueSweepInterval: Int64 = 2_000
    static let overdueGrace: Int64 = 2_000

    /// Refreshes the gauges that are cheaper to read at scrape time than to track.
    func refreshGauges() {
        for game in games { metrics.recordLiveGames(game.count, byStage: game.countsByStage, of: game.kind) }
        if let node {
            metrics.cluster.record(games.reduce(ServedCounts()) { $0 + $1.servedCounts })
            metrics.cluster.draining.set(Double(node.isDraining ? 1 : 0))
        }
        metrics.subscriptions.set(Double(subscriberCount))
        metrics.connectedUsers.set(Double(presence.connectedUsers))
    }

    /// Whether this node of a cluster is draining (it takes no new clients, and lets its clients go).
    var isDraining: Bool { node?.isDraining ?? false }

    /// Subscriptions held to every game and to the games' other feeds.
    var subscriberCount: Int {
        games.reduce(0) { $0 + $1.subscriberCount } + gameFeeds.reduce(0) { $0 + $1.subscriberCount }
    }

    /// Deletes games nobody is connected to that have not changed for the configured time (where their
    /// rules allow: a word lobby only between rounds).
    @discardableResult
    func expireAbandonedGames() async -> Int {
        if let node { await takeOnOrphans(as: node) }
        var total = 0
        for game in games { total += await expireAbandoned(game) }
        return total
    }

    /// Takes on, so that they can expire, games no serving node serves that have been quiet since
    /// the shortest expiry cutoff: their node died (or drained) and none of their players came back.
    private func takeOnOrphans(as node: ClusterNode) async {
        let quietSince = clock.now.adding(milliseconds: -Int64(configuration.unjoinedGameExpiry.nanoseconds / 1_000_000))
        guard let serving = node.servingNodes,
            let orphans = try? await node.store.orphanedGames(servedBy: Array(serving), unchangedSince: quietSince, limit: 200)
        else { return }
        let games = gamesByKind
        for (kind, id) in orphans { await games[kind]?.takeOverdue(id: id) }
    }

    /// Deletes the abandoned games of one kind; returns how many went.
    func expireAbandoned(_ game: any HostedGame) async -> Int {
        let now = clock.now.millisecondsSinceEpoch
        let cutoffs = ExpiryCutoffs(
            unchangedSince: Instant(millisecondsSinceEpoch: now - Int64(configuration.roomExpiry.nanoseconds / 1_000_000)),
            unjoinedSince: Instant(millisecondsSinceEpoch: now - Int64(configuration.unjoinedGameExpiry.nanoseconds / 1_000_000)))
        let expired = await game.expireAbandoned(cutoffs, presence: presence)
        if expired > 0 { logger.info("Expired abandoned games", metadata: ["kind": "\(game.kind)", "count": "\(expired)"]) }
        return expired
    }
}
