import Histogram
import Synchronization

/// One latency distribution, recorded from many connections at once into an HdrHistogram
/// (microseconds, 3 significant digits, up to an hour: longer values are clamped and counted).
final class LatencyRecorder: Sendable {
    static let highestTrackableMicroseconds: UInt64 = 3_600_000_000

    private struct State {
        var histogram = LatencyRecorder.makeHistogram()
        /// Since the last `takeWindow()`: what the progress line and the timeline show per second.
        var window = LatencyRecorder.makeHistogram()
        var clamped = 0
    }

    private static func makeHistogram() -> Histogram<UInt64> {
        Histogram<UInt64>(
            lowestDiscernibleValue: 1, highestTrackableValue: highestTrackableMicroseconds, numberOfSignificantValueDigits: .three)
    }

    private let state = Mutex(State())

    init() {}

    func record(_ duration: Duration) {
        var microseconds = duration.microseconds
        state.withLock { state in
            if microseconds > Self.highestTrackableMicroseconds {
                microseconds = Self.highestTrackableMicroseconds
                state.clamped += 1
            }
            _ = state.histogram.record(microseconds)
            _ = state.window.record(microseconds)
        }
    }

    /// The p99 and max (ms) of what was recorded since the last call, and starts a new window.
    func takeWindow() -> (p99: Double?, max: Double?) {
        state.withLock { state in
            defer { state.window.reset() }
            guard state.window.totalCount > 0 else { return (nil, nil) }
            return (Double(state.window.valueAtPercentile(99)) / 1000, Double(state.window.max) / 1000)
        }
    }

    var count: Int { state.withLock { Int($0.histogram.totalCount) } }

    /// The value at `percentile` (0…100) so far, in milliseconds; nil before anything was recorded.
    func milliseconds(atPercentile percentile: Double) -> Double? {
        state.withLock { state in
            state.histogram.totalCount == 0 ? nil : Double(state.histogram.valueAtPercentile(percentile)) / 1000
        }
    }

    /// The distribution at `PercentilePoint.percentiles` (100: the largest value); empty before anything
    /// was recorded.
    var percentileCurve: [PercentilePoint] {
        state.withLock { state in
            guard state.histogram.totalCount > 0 else { return [] }
            return PercentilePoint.percentiles.map { percentile in
                let value = percentile >= 100 ? state.histogram.max : state.histogram.valueAtPercentile(percentile)
                return PercentilePoint(percentile: percentile, milliseconds: Double(value) / 1000)
            }
        }
    }

    var summary: LatencySummary {
        state.withLock { state in
            let histogram = state.histogram
            let ms = { (value: UInt64) in Double(value) / 1000 }
            guard histogram.totalCount > 0 else { return LatencySummary(count: 0, clamped: 0) }
            return LatencySummary(
                count: Int(histogram.totalCount), clamped: state.clamped,
                p50: ms(histogram.valueAtPercentile(50)), p90: ms(histogram.valueAtPercentile(90)),
                p99: ms(histogram.valueAtPercentile(99)), p999: ms(histogram.valueAtPercentile(99.9)),
                max: ms(histogram.max), mean: histogram.mean / 1000)
        }
    }
}

/// A latency distribution as reported: milliseconds, from the HdrHistogram (values are the histogram's
/// equivalent-range representatives, within 0.1 %).
struct LatencySummary: Codable, Sendable, Equatable {
    var count: Int
    /// Values above an hour, recorded as an hour.
    var clamped: Int
    var p50: Double?
    var p90: Double?
    var p99: Double?
    var p999: Double?
    var max: Double?
    var mean: Double?

    enum CodingKeys: String, CodingKey {
        case count, clamped
        case p50 = "p50_ms", p90 = "p90_ms", p99 = "p99_ms", p999 = "p99_9_ms", max = "max_ms", mean = "mean_ms"
    }
}

extension Duration {
    /// Whole microseconds; negative durations count as zero.
    var microseconds: UInt64 {
        let (seconds, attoseconds) = components
        let total = seconds * 1_000_000 + attoseconds / 1_000_000_000_000
        return total > 0 ? UInt64(total) : 0
    }

    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
