import Logging
import NIOConcurrencyHelpers
import Testing
@testable import ParlorServer

/// The `Connections` line: what happened since the last one, as `key=value` metadata, and nothing at
/// all for an interval in which nothing happened.
@Suite struct ActivityLogTests {
    /// Keeps what is logged through it.
    struct Capture: LogHandler {
        let lines: NIOLockedValueBox<[(message: String, metadata: Logger.Metadata)]>
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            lines.withLockedValue { $0.append(("\(event.message)", event.metadata ?? [:])) }
        }
    }

    @Test func aSummaryCarriesTheIntervalsCountsAndQuietIntervalsSayNothing() {
        let lines = NIOLockedValueBox<[(message: String, metadata: Logger.Metadata)]>([])
        let activity = ActivityLog(logger: Logger(label: "test") { _ in Capture(lines: lines) })
        #expect(!activity.summarize(over: .seconds(60)))

        for _ in 0..<3 { activity.connectionOpened() }
        activity.connectionClosed()
        activity.answeredWithError("ROOM_NOT_FOUND")
        activity.answeredWithError("RATE_LIMITED")
        activity.answeredWithError("ROOM_NOT_FOUND")
        #expect(activity.summarize(over: .seconds(60)))
        // The next interval starts from nothing, but the connections still open are still open.
        #expect(!activity.summarize(over: .seconds(60)))
        activity.connectionClosed()
        #expect(activity.summarize(over: .seconds(60)))

        let logged = lines.withLockedValue { $0 }
        #expect(logged.map(\.message) == ["Connections", "Connections"])
        #expect(logged.first?.metadata == [
            "opened": "3", "closed": "1", "open": "2", "interval": "60s", "errors": "RATE_LIMITED:1,ROOM_NOT_FOUND:2",
        ])
        #expect(logged.last?.metadata == ["opened": "0", "closed": "1", "open": "1", "interval": "60s"])
    }
}
