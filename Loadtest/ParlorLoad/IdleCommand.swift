import ArgumentParser
import Foundation

/// `parlor-load idle`: N signed-in, subscribed connections held for a while; reports what each costs the
/// server in memory.
struct IdleCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "idle",
        abstract: "Hold N signed-in connections, each observing a room, and report the server's memory per connection.",
        discussion: """
            Connections are grouped --per-room to a room: the first of each group signs in and creates the \
            room (it sits in it alone), the others sign in and observe it, as spectators do. Every connection \
            observes its room. At most --concurrency connections are being set up at once. Once all are in, \
            they are held for --duration seconds while the server's resident memory (VmRSS of --server-pid) \
            is sampled each second. Memory per connection = (RSS while holding − RSS before the first \
            connection) / connections held, so start a fresh server for each run. The server's own view \
            (parlor_connections, parlor_subscriptions, parlor_rooms) is read from /metrics.
            """)

    @OptionGroup var connection: ConnectionOptions

    @Option(help: "Connections.")
    var connections: Int = 1000

    @Option(help: "Connections per room: one creates the room, the others observe it.")
    var perRoom: Int = 50

    @Option(help: "Seconds to hold every connection once all are in.")
    var duration: Double = 30

    @Option(help: "Connections being set up at once.")
    var concurrency: Int = 200

    @Option(help: "Seconds the set-up may take before the run gives up on its stragglers.")
    var setupTimeout: Double = 300

    func validate() throws {
        guard connections > 0, perRoom > 0, concurrency > 0 else {
            throw ValidationError("--connections, --per-room and --concurrency must be at least 1.")
        }
        guard duration > 0, setupTimeout > 0 else { throw ValidationError("--duration and --setup-timeout must be positive.") }
    }

    func run() async throws {
        let parameters = IdleParameters(
            url: connection.url, connections: connections, perRoom: perRoom, durationSeconds: duration,
            concurrency: concurrency, setupTimeoutSeconds: setupTimeout, sourceAddresses: connection.sourceAddresses,
            compress: connection.compress, serverPid: connection.serverPid)
        connection.startEventLoops()
        if let problem = connection.checkCapacity(connections: connections) { try connection.refuse(problem) }
        if let warning = connection.serverCapacityWarning(connections: connections) { connection.progress(warning) }
        if connection.serverPid == nil {
            connection.progress("warning: without --server-pid the server's memory cannot be read; only /metrics is reported.")
        }
        connection.progress(
            "idle: \(connections) connections in \((connections + perRoom - 1) / perRoom) rooms, held \(duration) s")

        Interrupt.install()
        let report = await IdleDriver(parameters: parameters, options: connection).run()
        try connection.finish(report)
    }
}
