import ArgumentParser
import Foundation

/// `parlor-load darts`: M matches × P players (+ S spectators) over real connections; the players of a
/// match throw in turn, each once per interval, everyone observes the match; reports what players and
/// spectators would feel. The same run as `rooms` (`RoomsDriver`), with darts' set-up and turns.
struct DartsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "darts",
        abstract: "Drive many concurrent darts matches: players throw in turn on a timetable, spectators watch.",
        discussion: """
            Each match (501, first to 15 legs of 13 sets, so it cannot finish during a run) is created, \
            joined and started over the real protocol, at most --setup-concurrency matches at a time. \
            Then its players throw in turn — each once every --interval seconds, so the match records a \
            visit every interval ÷ players — from a fixed script in which every leg is won by the player \
            who starts it (four visits of 100, then T20 S1 D20; the others score 60), for --duration \
            seconds; the run waits up to --drain seconds for the last replies and events. The timetable is \
            open loop: latencies run from the time a visit was due. A player throws only once its view \
            holds the visit before its own, as a player at the board would, so a slow fan-out delays the \
            next visit: that wait is part of the generator lag, and of every latency. The exit status is 0 \
            only when nothing went wrong: no error reply, no connection failure, every member holding its \
            match's final version, versions strictly increasing per member.
            """)

    @OptionGroup var connection: ConnectionOptions

    @Option(help: "Matches.")
    var matches: Int = 10

    @Option(help: "Players per match, the host included (1…8).")
    var players: Int = 2

    @Option(help: "Spectators per match: they only observe.")
    var spectators: Int = 2

    @Option(help: "Seconds between one player's visits (the match throws every interval ÷ players).")
    var interval: Double = 3

    @Option(help: "Seconds of measurement (after set-up).")
    var duration: Double = 30

    @Option(help: "Matches being set up at once.")
    var setupConcurrency: Int = 50

    @Option(help: "Seconds one match's set-up may take before it counts as failed.")
    var setupTimeout: Double = 60

    @Option(help: "Seconds to wait after the last visit for outstanding replies and events.")
    var drain: Double = 10

    @Option(help: "Seed of the matches' timetable phases (default: random, and reported).")
    var seed: UInt64?

    func validate() throws {
        guard matches > 0 else { throw ValidationError("--matches must be at least 1.") }
        guard (1...8).contains(players) else { throw ValidationError("--players must be between 1 and 8 (a match seats 1…8).") }
        try RoomsParameters.validate(
            spectators: spectators, interval: interval, duration: duration, drain: drain, setupTimeout: setupTimeout,
            setupConcurrency: setupConcurrency)
        let visits = duration / interval * Double(players)
        guard visits < Double(DartsScript(players: players).visitsBeforeAnyWin) else {
            throw ValidationError("--duration \(duration) is too long for --interval \(interval): a match could finish during the run.")
        }
    }

    func run() async throws {
        let parameters = RoomsParameters(
            game: .darts, url: connection.url, rooms: matches, players: players, spectators: spectators, intervalSeconds: interval,
            durationSeconds: duration, setupConcurrency: setupConcurrency, setupTimeoutSeconds: setupTimeout,
            drainSeconds: drain, sourceAddresses: connection.sourceAddresses, compress: connection.compress,
            seed: seed ?? UInt64.random(in: .min ... .max))
        try await RoomsDriver.run(parameters, options: connection)
    }
}
