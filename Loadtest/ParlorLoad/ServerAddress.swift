import ArgumentParser
import Foundation

/// Where the server is, named as `parlor` names it: `--server URL`, or `PARLOR_SERVER` in the
/// environment. `--url`, the old name, still works (hidden) so that existing scripts run.
struct ServerAddress: ParsableArguments {
    @Option(name: .customLong("server"), help: ArgumentHelp(
        "The server's WebSocket endpoint (default: ws://127.0.0.1:8080/ws, or /echo for echo). Also read from PARLOR_SERVER.",
        valueName: "url"))
    var serverFlag: String?

    @Option(name: .customLong("url"), help: .hidden)
    var urlFlag: String?

    /// `--server`, else `--url`, else `PARLOR_SERVER`, else `fallback`.
    func url(default fallback: String) -> String {
        serverFlag ?? urlFlag ?? ProcessInfo.processInfo.environment["PARLOR_SERVER"].flatMap { $0.isEmpty ? nil : $0 } ?? fallback
    }

    func validate() throws {
        if serverFlag != nil && urlFlag != nil {
            throw ValidationError("--url is the old name of --server; give one of them.")
        }
    }
}
