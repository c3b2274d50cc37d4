import ArgumentParser
import Foundation

/// `parlor-load connect`: N connections as fast as the server takes them, then every one drops and
/// reconnects at once with its token — the reconnect storm after a deploy.
struct ConnectCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "connect",
        abstract: "Open N connections as fast as the server accepts them, drop them all, reconnect all at once.",
        discussion: """
            First wave: each connection connects, upgrades and signs in (hello), at most --concurrency at a \
            time. After --hold seconds every connection drops: abruptly by default (the generator sends its \
            close frame and drops TCP at once, without waiting for the server's answer), or with the full \
            close handshake with --polite. Once all are closed, all reconnect at once (or --storm-concurrency \
            at a time), each presenting its token (hello {token}); the server should resume every one. The \
            exit status is 0 only when no connection failed and every reconnection resumed its user.
            """)

    @OptionGroup var connection: ConnectionOptions

    @Option(help: "Connections.")
    var connections: Int = 1000

    @Option(help: "Connections being opened at once in the first wave.")
    var concurrency: Int = 500

    @Option(help: "Reconnections in flight at once during the storm (default: all of them).")
    var stormConcurrency: Int?

    @Flag(help: "Drop with the close handshake (waiting for the server's answer) instead of abruptly.")
    var polite = false

    @Option(help: "Seconds every connection stays open before the drop.")
    var hold: Double = 1

    @Option(help: "Seconds each wave may take before the run gives up on its stragglers.")
    var waveTimeout: Double = 120

    func validate() throws {
        guard connections > 0, concurrency > 0 else { throw ValidationError("--connections and --concurrency must be at least 1.") }
        if let stormConcurrency, stormConcurrency < 1 { throw ValidationError("--storm-concurrency must be at least 1.") }
        guard hold >= 0, waveTimeout > 0 else { throw ValidationError("--hold cannot be negative and --wave-timeout must be positive.") }
    }

    func run() async throws {
        let parameters = ConnectParameters(
            url: connection.url, connections: connections, concurrency: concurrency,
            stormConcurrency: stormConcurrency ?? connections, polite: polite, holdSeconds: hold,
            waveTimeoutSeconds: waveTimeout, sourceAddresses: connection.sourceAddresses, compress: connection.compress)
        connection.startEventLoops()
        // An abrupt drop leaves each old local port in TIME_WAIT while its connection comes back on a new one.
        if let problem = connection.checkCapacity(connections: connections, portsPerConnection: polite ? 1 : 2) {
            try connection.refuse(problem)
        }
        if let warning = connection.serverCapacityWarning(connections: connections) { connection.progress(warning) }
        connection.progress(
            "connect: \(connections) connections (\(concurrency) at a time), then an \(polite ? "polite" : "abrupt") drop "
                + "and a reconnect storm (\(parameters.stormConcurrency) at a time)")

        let report = await ConnectDriver(parameters: parameters, options: connection).run()
        try connection.finish(report)
    }
}
