import ArgumentParser
import Foundation

/// `parlor-load soak`: rooms churning for a long time — created, played, finished, abandoned —
/// members dropping and coming back, spectators unsubscribing and observing again; the server's
/// memory, descriptors and threads must come back to where they settled, and every rooms invariant
/// must hold.
struct SoakCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "soak",
        abstract: "Churn rooms for a long time and check the server settles: memory, descriptors and threads stay level.",
        discussion: """
            --rooms slots each run room lives one after another until --duration is over. A life: every \
            member connects and signs in, the host creates the room, the players join and get ready, everyone \
            observes it, the host starts it; then rounds — every player enters a score (one action every \
            --interval seconds per room), the host closes the round. Some lives play until the rules finish \
            the game and everyone leaves (the room is deleted); --abandon-share of them stop after one to three \
            rounds: half leave (deleted), half drop every connection (the room stays until the server's \
            expiry: give the server a short --room-expiry-hours, or live rooms grow through the run). In each \
            round a member may drop its connection abruptly and come back with hello {token} (--drop-chance) \
            and a spectator may unsubscribe and observe again (--unsubscribe-chance).

            Every --sample-interval seconds the server's resident memory, open descriptors and threads \
            (/proc/PID, with --server-pid) and its /metrics gauges are sampled. The level it settled at is the \
            median over the --window seconds after --warmup; the level at the end is the median over the last \
            --window seconds. The exit status is 0 only when both levels are within --tolerance percent of \
            each other, no room life failed, no request got an error, every reconnection resumed its user, \
            every member still in a room ended on its final version with versions only going up, every \
            observer saw its room deleted, and the server's connections, subscriptions and connected users \
            were back at 0 once every connection had closed.
            """)

    @OptionGroup var connection: ConnectionOptions

    @Option(help: "Rooms in play at once (each a slot running room lives one after another).")
    var rooms: Int = 20

    @Option(help: "Players per room, the host included (2…10).")
    var players: Int = 4

    @Option(help: "Spectators per room: they only observe.")
    var spectators: Int = 2

    @Option(help: "Seconds between one room's actions (scores, closing a round), give or take a fifth.")
    var interval: Double = 1

    @Option(help: "Seconds during which room lives start; then every room is left at its next round.")
    var duration: Double = 120

    @Option(help: "Seconds before the server's level counts as settled.")
    var warmup: Double = 30

    @Option(help: "Seconds of samples whose median is a level (after the warm-up, and at the end).")
    var window: Double = 30

    @Option(help: "Seconds between looks at the server.")
    var sampleInterval: Double = 5

    @Option(help: "How far (percent) the level at the end may be from where the server settled.")
    var tolerance: Double = 5

    @Option(help: "Chance per round that a member drops its connection and comes back.")
    var dropChance: Double = 0.3

    @Option(help: "Chance per round that a spectator unsubscribes and observes again.")
    var unsubscribeChance: Double = 0.3

    @Option(help: "Share of room lives abandoned after one to three rounds instead of played to the end.")
    var abandonShare: Double = 0.5

    @Option(help: "Seconds one request may wait for its reply.")
    var requestTimeout: Double = 30

    @Option(help: "Seed of every random choice (default: random, and reported).")
    var seed: UInt64?

    func validate() throws {
        guard rooms > 0 else { throw ValidationError("--rooms must be at least 1.") }
        guard (2...10).contains(players) else { throw ValidationError("--players must be between 2 and 10 (a room seats 2…10).") }
        guard spectators >= 0 else { throw ValidationError("--spectators cannot be negative.") }
        guard interval > 0, sampleInterval > 0, window > 0, requestTimeout > 0, warmup >= 0, tolerance >= 0 else {
            throw ValidationError("--interval, --sample-interval, --window and --request-timeout must be positive; --warmup and --tolerance at least 0.")
        }
        guard duration >= warmup + 2 * window else {
            throw ValidationError(
                "--duration (\(duration) s) must hold the warm-up and two windows (\(warmup + 2 * window) s): one to settle, one at the end.")
        }
        guard sampleInterval * 3 <= window else {
            throw ValidationError("--sample-interval must be at most a third of --window, so each level is the median of three samples or more.")
        }
        for (name, value) in [("--drop-chance", dropChance), ("--unsubscribe-chance", unsubscribeChance), ("--abandon-share", abandonShare)]
        where !(0...1).contains(value) {
            throw ValidationError("\(name) must be between 0 and 1 (got \(value)).")
        }
    }

    func run() async throws {
        let parameters = SoakParameters(
            url: connection.url, rooms: rooms, players: players, spectators: spectators, intervalSeconds: interval,
            durationSeconds: duration, warmupSeconds: warmup, windowSeconds: window, sampleIntervalSeconds: sampleInterval,
            tolerancePercent: tolerance, dropChance: dropChance, unsubscribeChance: unsubscribeChance, abandonShare: abandonShare,
            requestTimeoutSeconds: requestTimeout, sourceAddresses: connection.sourceAddresses, compress: connection.compress,
            seed: seed ?? UInt64.random(in: .min ... .max))
        // Each member may hold a second connection while its first one closes.
        let connections = rooms * parameters.membersPerRoom * 2
        connection.startEventLoops()
        if let problem = connection.checkCapacity(connections: connections, portsPerConnection: 2) { try connection.refuse(problem) }
        if connection.serverPid == nil {
            connection.progress("warning: without --server-pid the server's memory, descriptors and threads cannot be read; only /metrics is sampled.")
        }
        connection.progress(
            "soak: \(rooms) rooms × (\(players) players + \(spectators) spectators) for \(duration) s, "
                + "settled after \(warmup) s, seed \(parameters.seed)")

        Interrupt.install()
        let report = await SoakDriver(parameters: parameters, options: connection).run()
        try connection.finish(report)
    }
}
