import ArgumentParser
import Foundation

/// `parlor-load rooms`: R rooms × P players (+ S spectators) over real connections; every player submits
/// a score on a fixed timetable, everyone observes the room; reports what players would feel.
struct RoomsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rooms",
        abstract: "Drive many concurrent rummy rooms: players submit scores on a timetable, everyone observes.",
        discussion: """
            Each room is created, joined, readied and started over the real protocol, at most \
            --setup-concurrency rooms at a time. Then every player submits a score every --interval seconds \
            (open loop: latencies run from the time a submission was due, not from when it was sent) for \
            --duration seconds, and the run waits up to --drain seconds for the last replies and events. \
            The exit status is 0 only when nothing went wrong: no error reply, no connection failure, every \
            member holding its room's final version, versions strictly increasing per member.
            """)

    @OptionGroup var connection: ConnectionOptions

    @Option(help: "Rooms.")
    var rooms: Int = 10

    @Option(help: "Players per room, the host included (2…10).")
    var players: Int = 8

    @Option(help: "Spectators per room: they only observe.")
    var spectators: Int = 0

    @Option(help: "Seconds between one player's score submissions.")
    var interval: Double = 2

    @Option(help: "Seconds of measurement (after set-up).")
    var duration: Double = 30

    @Option(help: "Rooms being set up at once.")
    var setupConcurrency: Int = 50

    @Option(help: "Seconds one room's set-up may take before it counts as failed.")
    var setupTimeout: Double = 60

    @Option(help: "Seconds to wait after the last submission for outstanding replies and events.")
    var drain: Double = 10

    @Option(help: "Seed of the players' timetable phases (default: random, and reported).")
    var seed: UInt64?

    func validate() throws {
        guard rooms > 0 else { throw ValidationError("--rooms must be at least 1.") }
        guard (2...10).contains(players) else { throw ValidationError("--players must be between 2 and 10 (a room seats 2…10).") }
        try RoomsParameters.validate(
            spectators: spectators, interval: interval, duration: duration, drain: drain, setupTimeout: setupTimeout,
            setupConcurrency: setupConcurrency)
    }

    func run() async throws {
        let parameters = RoomsParameters(
            url: connection.url, rooms: rooms, players: players, spectators: spectators, intervalSeconds: interval,
            durationSeconds: duration, setupConcurrency: setupConcurrency, setupTimeoutSeconds: setupTimeout,
            drainSeconds: drain, sourceAddresses: connection.sourceAddresses, compress: connection.compress,
            seed: seed ?? UInt64.random(in: .min ... .max))
        try await RoomsDriver.run(parameters, options: connection)
    }
}
