import NIOConcurrencyHelpers
import NIOCore

/// Turns the server's running totals into rates for the operator's page: each look at the page takes
/// a sample (at most one a second is kept, for a minute), and a rate is the change between the oldest
/// kept sample and the newest over the time between them. Nothing is counted on a request's path that
/// `/metrics` does not count already.
final class AdminRates: Sendable {
    struct Sample: Sendable {
        var at: NIODeadline
        var reading: ExpositionReading
        var storeWrites: Int
    }

    /// What the page shows: per second over `window`, and the latency of the requests in it.
    struct Figures: Sendable, Equatable {
        var windowSeconds: Double
        var operationsPerSecond: Double
        var errorsPerSecond: Double
        var storeWritesPerSecond: Double
        var latencyP50Seconds: Double?
        var latencyP99Seconds: Double?
    }

    static let window = TimeAmount.seconds(60)
    static let spacing = TimeAmount.seconds(1)

    private let samples = NIOLockedValueBox<[Sample]>([])

    /// Keeps `sample` (unless the last kept one is under a second old) and returns the figures between
    /// the oldest kept sample and it; over the whole run when it is the first.
    func take(_ sample: Sample) -> Figures {
        let oldest = samples.withLockedValue { samples -> Sample? in
            samples.removeAll { sample.at - $0.at > Self.window }
            if samples.last.map({ sample.at - $0.at >= Self.spacing }) ?? true { samples.append(sample) }
            return samples.first
        }
        guard let oldest, sample.at > oldest.at else {
            return Figures(
                windowSeconds: 0, operationsPerSecond: 0, errorsPerSecond: 0, storeWritesPerSecond: 0,
                latencyP50Seconds: ExpositionReading.latency(0.5, in: sample.reading.latencyBuckets),
                latencyP99Seconds: ExpositionReading.latency(0.99, in: sample.reading.latencyBuckets))
        }
        let seconds = Double((sample.at - oldest.at).nanoseconds) / 1e9
        var buckets = sample.reading.latencyBuckets
        for (bound, count) in oldest.reading.latencyBuckets { buckets[bound, default: 0] -= count }
        return Figures(
            windowSeconds: seconds,
            operationsPerSecond: (sample.reading.operations - oldest.reading.operations) / seconds,
            errorsPerSecond: (sample.reading.errors - oldest.reading.errors) / seconds,
            storeWritesPerSecond: Double(sample.storeWrites - oldest.storeWrites) / seconds,
            latencyP50Seconds: ExpositionReading.latency(0.5, in: buckets),
            latencyP99Seconds: ExpositionReading.latency(0.99, in: buckets))
    }
}
