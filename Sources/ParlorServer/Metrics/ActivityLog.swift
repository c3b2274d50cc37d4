import Logging
import NIOConcurrencyHelpers

/// What the server's connections did, told to the log once per interval rather than once per event:
/// WebSocket sessions opened and closed, and the error codes requests (WebSocket and REST) were
/// answered with — so an operator reading `info` sees the traffic's shape without a line per
/// connection or per message.
final class ActivityLog: Sendable {
    private struct Tally {
        var opened = 0
        var closed = 0
        var errors: [String: Int] = [:]
    }

    private let tally = NIOLockedValueBox(Tally())
    /// WebSocket sessions open now (not reset by a summary).
    private let open = NIOLockedValueBox(0)
    private let logger: Logger

    init(logger: Logger) {
        self.logger = logger
    }

    func connectionOpened() {
        tally.withLockedValue { $0.opened += 1 }
        open.withLockedValue { $0 += 1 }
    }

    func connectionClosed() {
        tally.withLockedValue { $0.closed += 1 }
        open.withLockedValue { $0 -= 1 }
    }

    /// A request was answered with the error `code`.
    func answeredWithError(_ code: String) {
        tally.withLockedValue { $0.errors[code, default: 0] += 1 }
    }

    /// Logs one line with what happened since the last one, the connections open now and the length of
    /// the interval; says nothing when nothing happened. Returns whether it logged.
    @discardableResult
    func summarize(over interval: Duration) -> Bool {
        let open = self.open.withLockedValue { $0 }
        let last = tally.withLockedValue { tally -> Tally in
            defer { tally = Tally() }
            return tally
        }
        guard last.opened > 0 || last.closed > 0 || !last.errors.isEmpty else { return false }
        var metadata: Logger.Metadata = [
            "opened": "\(last.opened)", "closed": "\(last.closed)", "open": "\(open)",
            "interval": "\(interval.components.seconds)s",
        ]
        if !last.errors.isEmpty {
            metadata["errors"] = "\(last.errors.sorted { $0.key < $1.key }.map { "\($0.key):\($0.value)" }.joined(separator: ","))"
        }
        logger.info("Connections", metadata: metadata)
        return true
    }

    /// Summarizes every `interval` until the calling task is cancelled.
    func run(every interval: Duration) async {
        while !Task.isCancelled {
            do {
                try await Task.sleep(for: interval)
            } catch {
                return
            }
            summarize(over: interval)
        }
    }
}
