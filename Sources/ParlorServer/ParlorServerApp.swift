import Foundation
import Logging
import NIOCore
import NIOHTTP1
import ServiceLifecycle
import UnixSignals
import SystemTLS
import WebSocketCore

/// Parlor's routes on the one port: `/ws` (the game protocol), `/echo` (when enabled), and HTTP.
struct ParlorApplication: WebSocketServerApplication {
    static let gamePath = "/ws"
    /// Offered by clients that want to name the protocol version; accepted when asked for.
    static let subprotocol = "parlor.v1"

    let services: ParlorServices
    let routes: HTTPRoutes

    init(services: ParlorServices) {
        self.services = services
        routes = HTTPRoutes(services: services)
    }

    func shouldUpgrade(_ request: WebSocketUpgradeRequest) -> WebSocketUpgradeDecision {
        switch request.path {
        case Self.gamePath where services.isDraining:
            // A draining node of a cluster takes no new clients: the front retries this on another node.
            return .reject(.serviceUnavailable, reason: "This node is restarting; connect again to reach another.")
        case Self.gamePath:
            // A token in the upgrade request signs the connection in at once; a bad one is refused
            // here rather than silently ignored.
            if let token = Self.upgradeToken(request), services.tokens.verify(token) == nil {
                return .reject(.unauthorized, reason: "The token is not valid on this server; sign in again with hello.")
            }
            return .accept(subprotocol: request.requestedSubprotocols.contains(Self.subprotocol) ? Self.subprotocol : nil)
        case EchoEndpoint.path where services.configuration.echo:
            return .accept()
        default:
            return .reject(.notFound, reason: "No WebSocket endpoint at \(request.path); Parlor's is \(Self.gamePath).")
        }
    }

    /// `/ws`: a session receives the connection's messages (no task while the client is quiet).
    func receiver(for connection: WebSocketConnection, request: WebSocketUpgradeRequest) -> (any WebSocketReceiver)? {
        guard request.path == Self.gamePath else { return nil }
        let user = Self.upgradeToken(request).flatMap(services.tokens.verify)
        return Session(connection: connection, services: services, user: user)
    }

    /// `/echo` runs in a task of its own.
    func handle(_ webSocket: WebSocket, request: WebSocketUpgradeRequest) async {
        switch request.path {
        case EchoEndpoint.path:
            await EchoEndpoint.serve(webSocket)
        default:
            await webSocket.close(code: .policyViolation, reason: "unknown endpoint")
        }
    }

    func respond(to request: HTTPRequest) async -> HTTPResponse {
        if request.path == EchoEndpoint.path && services.configuration.echo {
            return HTTPResponse(
                status: .upgradeRequired, headers: ["Upgrade": "websocket", "Sec-WebSocket-Version": "13"],
                body: ByteBuffer(string: "This endpoint speaks WebSocket only\n"))
        }
        return await routes.respond(to: request)
    }

    /// The body limit of the game route this request is for (the listener's otherwise), known before
    /// the body is read: an avatar upload may bring megabytes, a JSON route its 64 KiB.
    func maxRequestBodySize(method: HTTPMethod, path: String) -> Int? {
        routes.maxBodySize(method: method, path: path)
    }

    /// `Authorization: Bearer …` or `?token=…`.
    static func upgradeToken(_ request: WebSocketUpgradeRequest) -> String? {
        BearerToken.from(request.headers) ?? request.query["token"]
    }
}

/// A running Parlor: the listener, the expiry sweep, the games' timers and background work over
/// one set of services.
///
/// As a ServiceLifecycle `Service`, `run()` serves until graceful shutdown (SIGTERM/SIGINT in
/// `parlor-server`): no new connections, in-flight operations are answered, clients are closed with 1001.
public final class ParlorServer: Service, Sendable {
    let services: ParlorServices
    private let listener: WebSocketServer<ParlorApplication>
    /// The operators' listener, when `admin.port` is set.
    private let adminListener: WebSocketServer<AdminApplication>?
    /// Fires once the listener has stopped, ending the sweeps.
    private let stopped = ShutdownSignal()
    /// The certificate and key of wss:// and https://, when serving them.
    private let tls: TLSServerContext?

    /// Opens the services over `store` (restoring every stored game) and prepares the listener.
    public convenience init(
        configuration: ServerConfiguration, store: any ParlorStore, clock: any ParlorClock = SystemClock(), logger: Logger
    ) async throws {
        try await self.init(configuration: configuration, store: store, clock: clock, logger: logger, games: ParlorGames.standard)
    }

    /// A server hosting `games` (tests add games of their own).
    init(
        configuration: ServerConfiguration, store: any ParlorStore, clock: any ParlorClock = SystemClock(), logger: Logger,
        games: [any GameModule]
    ) async throws {
        let services = try await ParlorServices(configuration: configuration, store: store, clock: clock, logger: logger, games: games)
        self.services = services
        var listenerConfiguration = configuration.listener
        let openFiles = ProcessLimits.raiseOpenFileLimit(logger: logger)
        let capacity = ProcessLimits.connectionCapacity(openFileLimit: openFiles)
        listenerConfiguration.maxConnections = min(configuration.limits.maxConnections ?? capacity, capacity)
        listenerConfiguration.maxConnectionsPerAddress = configuration.limits.maxConnectionsPerAddress
        listenerConfiguration.addressLimitExemptions = configuration.limits.exemptAddresses
        listenerConfiguration.trafficCounter = services.metrics.traffic
        if let wanted = configuration.limits.maxConnections, wanted > capacity {
            logger.warning(
                "--max-connections \(wanted) exceeds what the open-file limit (\(openFiles)) allows; holding at most \(capacity). Raise it with ulimit -n.")
        }
        if let files = configuration.tls {
            tls = try TLSServerContext(
                configuration: TLSServerConfiguration(certificateChainPath: files.certificatePath, privateKeyPath: files.privateKeyPath))
            listenerConfiguration.tls = tls
        } else {
            tls = nil
        }
        listener = WebSocketServer(
            configuration: listenerConfiguration, application: ParlorApplication(services: services), logger: logger)
        adminListener = configuration.admin.port.map { port in
            // Plain HTTP with the main port's head and body limits and slots of its own; the descriptors
            // the server keeps back from client connections cover them.
            var admin = configuration.listener
            admin.host = configuration.admin.host
            admin.port = port
            admin.tls = nil
            admin.maxConnections = configuration.admin.maxConnections
            admin.maxConnectionsPerAddress = nil
            admin.allowedOrigins = .allowList([])
            admin.trafficCounter = services.metrics.traffic
            return WebSocketServer(configuration: admin, application: AdminApplication(services: services), logger: logger)
        }
    }

    /// The bound address, once listening (the real port when configured with 0).
    public func localAddress() async throws -> SocketAddress {
        try await listener.localAddress()
    }

    /// The admin listener's bound address, once listening; nil when there is none.
    public func adminAddress() async throws -> SocketAddress? {
        try await adminListener?.localAddress()
    }

    /// Serves until graceful shutdown or cancellation.
    public func run() async throws {
        try await withGracefulShutdownHandler {
            try await withThrowingDiscardingTaskGroup { group in
                group.addTask {
                    defer { self.stopped.fire() }
                    try await self.listener.run()
                }
                if let adminListener {
                    group.addTask {
                        do {
                            try await adminListener.run()
                        } catch {
                            // The admin port could not be bound: the server does not run without it.
                            self.listener.beginGracefulShutdown()
                            throw error
                        }
                    }
                    // Operators watch a shutdown too: the admin port closes once the clients are gone.
                    group.addTask {
                        await self.stopped.wait()
                        adminListener.beginGracefulShutdown()
                    }
                }
                group.addTask { await self.sweepAbandonedGames() }
                if let tls, let interval = services.configuration.tls?.changeCheckInterval {
                    group.addTask { await self.untilStopped { await self.watchCertificate(tls, every: interval) } }
                }
                group.addTask { await self.untilStopped { await self.services.runTimers() } }
                group.addTask { await self.untilStopped { await MemoryReclaimer(self.services) { self.listener.connectionCount }.run() } }
            }
        } onGracefulShutdown: {
            self.beginGracefulShutdown()
        }
        await stopBackup()
    }

    /// Every connection has ended, an operator's `/admin/backup` stream too (cut if the shutdown grace
    /// did not see it finish): its backup is stopped, and waited for until it removed its snapshot.
    private func stopBackup() async {
        guard case .sqlite(let store) = services.store.backend else { return }
        let dataDirectory = (store.databasePath as NSString).deletingLastPathComponent
        if !(await BackupTicket.stop(dataDirectory: dataDirectory, timeout: .seconds(10))) {
            services.logger.warning("A backup did not stop within 10 s; its snapshot may be left in the temporary directory")
        }
    }

    /// Stops the server as SIGTERM would (for embedding and tests). A node of a cluster drains first
    /// (`drain(_:)`).
    public func beginGracefulShutdown() {
        guard let node = services.node else {
            listener.beginGracefulShutdown()
            return
        }
        guard node.startDraining() else { return }
        Task { await self.drain(node) }
    }

    /// A node of a cluster stops without dropping anyone: it says it is draining (`/readyz`, its row in
    /// `nodes`) and refuses new WebSockets (the front retries them on another node), lets go of its
    /// games, then tells every client to reconnect (1012, once its request in flight is answered) —
    /// they land on other nodes, on their seats, and those nodes take the games on. It keeps listening
    /// for the drain notice, so the front's checks see it draining, and until its clients have gone
    /// (at most the shutdown grace period); then it stops as a server on its own does.
    private func drain(_ node: ClusterNode) async {
        let started = ContinuousClock.now
        services.logger.info("Draining", metadata: ["node": "\(node.name)", "clients": "\(services.connections.count)"])
        await node.drain()
        for session in services.connections.all {
            session.connection.eventLoop.execute { session.serverShuttingDown() }
        }
        let grace = Duration.nanoseconds(listener.configuration.shutdownGracePeriod.nanoseconds)
        while ContinuousClock.now - started < grace {
            if ContinuousClock.now - started >= node.configuration.drainNotice, services.connections.count == 0 { break }
            try? await Task.sleep(for: .milliseconds(100))
        }
        listener.beginGracefulShutdown()
    }

    /// Reads the certificate and key files again (SIGHUP, or a change `watchCertificate` saw): new
    /// connections get the new pair and open ones keep theirs, so nobody is dropped. A pair that cannot
    /// be used is refused with an error line naming why, and the one in use stays. Returns whether the
    /// new pair is in use.
    @discardableResult
    public func reloadCertificate(reason: String) -> Bool {
        guard let tls else {
            services.logger.notice("Nothing to reload: the server has no certificate (--tls-cert)", metadata: ["reason": "\(reason)"])
            return false
        }
        do {
            try tls.reload()
            services.logger.notice(
                "Certificate reloaded: new connections use it",
                metadata: ["reason": "\(reason)", "certificate": "\(tls.configuration.certificateChainPath)"])
            return true
        } catch {
            services.logger.error(
                "The new certificate was refused; the one in use stays",
                metadata: ["reason": "\(reason)", "error": "\(error)"])
            return false
        }
    }

    /// Looks at the certificate and key files every `interval` and reloads them once they have changed
    /// (a renewal that sent no SIGHUP). A pair refused is not tried again until the files change again.
    private func watchCertificate(_ tls: TLSServerContext, every interval: Duration) async {
        let paths = [tls.configuration.certificateChainPath, tls.configuration.privateKeyPath]
        var seen = paths.map(FileStamp.init(path:))
        while !Task.isCancelled {
            try? await Task.sleep(for: interval)
            if Task.isCancelled { return }
            let now = paths.map(FileStamp.init(path:))
            guard now != seen else { continue }
            // A renewal writes two files: let it finish before reading them.
            try? await Task.sleep(for: .seconds(1))
            seen = paths.map(FileStamp.init(path:))
            reloadCertificate(reason: "the files changed")
        }
    }

    /// Looks for abandoned games every sweep interval until the listener has stopped.
    private func sweepAbandonedGames() async {
        let interval = Duration.nanoseconds(services.configuration.expirySweepInterval.nanoseconds)
        while !stopped.isFired {
            await withTaskGroup(of: Void.self) { race in
                race.addTask { try? await Task.sleep(for: interval) }
                race.addTask { await self.stopped.wait() }
                await race.next()
                race.cancelAll()
            }
            if stopped.isFired || Task.isCancelled { return }
            await services.expireAbandonedGames()
        }
    }

    /// Runs `body` until the listener has stopped, then cancels it (the games' timers and background work).
    private func untilStopped(_ body: @escaping @Sendable () async -> Void) async {
        await withTaskGroup(of: Void.self) { race in
            race.addTask { await body() }
            race.addTask { await self.stopped.wait() }
            await race.next()
            race.cancelAll()
        }
    }
}

/// Starts Parlor with a configuration and runs it until a shutdown signal.
public enum ParlorServerRunner {
    /// Opens the store, restores rooms, and serves until SIGTERM/SIGINT. `onListening` receives the
    /// bound address (the real port when the configured port is 0).
    public static func run(
        configuration: ServerConfiguration, logger: Logger, clock: any ParlorClock = SystemClock(),
        onListening: @escaping @Sendable (SocketAddress) -> Void = { _ in },
        onAdminListening: @escaping @Sendable (SocketAddress) -> Void = { _ in }
    ) async throws {
        let store: any ParlorStore
        var lock: DataDirectoryLock?
        var storeConfiguration = SQLiteStoreConfiguration()
        storeConfiguration.commitDelay = configuration.commitDelay
        if let postgres = configuration.postgres {
            #if PostgreSQL
            let name = configuration.cluster.nodeName ?? ClusterNode.defaultName()
            store = try await PostgresStore(location: postgres, logger: logger, configuration: storeConfiguration, node: name)
            logger.info("Store opened", metadata: ["postgres": "\(postgres)", "node": "\(name)"])
            #else
            logger.error("Cannot open the PostgreSQL store", metadata: ["postgres": "\(postgres)"])
            throw PostgresSupport.NotBuiltError()
            #endif
        } else if configuration.persist {
            let opened = try StoreOpener.open(directory: configuration.dataDirectory, configuration: storeConfiguration, logger: logger)
            store = opened.store
            lock = opened.lock
        } else {
            logger.warning("Persistence is off (--no-persist): every room is lost when the server stops.")
            store = InMemoryStore()
        }
        let server = try await ParlorServer(configuration: configuration, store: store, clock: clock, logger: logger)
        let group = ServiceGroup(services: [server], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        // SIGHUP (systemd's reload) reads the certificate again; without one it only says so, rather than
        // ending the process as SIGHUP's default would.
        let hangups = await UnixSignalsSequence(trapping: .sighup)
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            tasks.addTask {
                if let address = try? await server.adminAddress() { onAdminListening(address) }
                if let address = try? await server.localAddress() { onListening(address) }
                for await _ in hangups { server.reloadCertificate(reason: "SIGHUP") }
            }
            try await tasks.next()
            tasks.cancelAll()
        }
        // Every acknowledged write is already committed; this lets queued ones finish and closes the file.
        await server.services.node?.leave()
        await store.close()
        withExtendedLifetime(lock) {}
    }
}

/// What tells a file was replaced or rewritten: its inode, size and modification time.
struct FileStamp: Equatable {
    let inode: UInt64
    let size: Int64
    let modified: timespec?

    init(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else {
            self.inode = 0
            self.size = -1
            self.modified = nil
            return
        }
        self.inode = UInt64(info.st_ino)
        self.size = Int64(info.st_size)
        self.modified = info.st_mtim
    }

    static func == (a: FileStamp, b: FileStamp) -> Bool {
        a.inode == b.inode && a.size == b.size
            && a.modified?.tv_sec == b.modified?.tv_sec && a.modified?.tv_nsec == b.modified?.tv_nsec
    }
}
