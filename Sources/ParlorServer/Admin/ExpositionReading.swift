/// Reads back the few figures the operator's page shows from the server's own Prometheus exposition,
/// so the page and `/metrics` can never disagree: requests answered (`parlor_operations_total`) and
/// their latency buckets (`parlor_operation_duration_seconds_bucket`), summed over every operation.
struct ExpositionReading: Sendable, Equatable {
    /// Requests answered since start, and those answered with an error.
    var operations: Double = 0
    var errors: Double = 0
    /// Cumulative latency buckets over every operation: upper bound in seconds → requests at or under it.
    var latencyBuckets: [Double: Double] = [:]

    init() {}

    /// Reads `text`, ignoring every other metric and any line it cannot read.
    init(_ text: String) {
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            guard let sample = Sample(line) else { continue }
            switch sample.name {
            case "parlor_operations_total":
                operations += sample.value
                if sample.labels["outcome"] != "ok" { errors += sample.value }
            case "parlor_operation_duration_seconds_bucket":
                guard let bound = sample.labels["le"].flatMap(Self.bound) else { continue }
                latencyBuckets[bound, default: 0] += sample.value
            default:
                continue
            }
        }
    }

    private static func bound(_ text: String) -> Double? {
        text == "+Inf" ? .infinity : Double(text)
    }

    /// The latency under which `quantile` of the requests counted in `buckets` (cumulative) were
    /// answered, as the bucket's upper bound; nil when no request is counted or it falls past the last
    /// finite bound.
    static func latency(_ quantile: Double, in buckets: [Double: Double]) -> Double? {
        let sorted = buckets.sorted { $0.key < $1.key }
        guard let total = sorted.last?.value, total > 0 else { return nil }
        let wanted = total * quantile
        return sorted.first { $0.value >= wanted }.flatMap { $0.key.isFinite ? $0.key : nil }
    }

    /// One line of the exposition: `name{label="value",…} number`.
    private struct Sample {
        let name: String
        let labels: [String: String]
        let value: Double

        init?(_ line: Substring) {
            guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else { return nil }
            let series = line[..<space]
            self.value = value
            guard let brace = series.firstIndex(of: "{") else {
                name = String(series)
                labels = [:]
                return
            }
            name = String(series[..<brace])
            var labels: [String: String] = [:]
            // Parlor's label values are operation names, outcomes and bounds: no quotes or commas inside.
            for pair in series[series.index(after: brace)...].dropLast().split(separator: ",") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                guard parts.count == 2 else { continue }
                labels[String(parts[0])] = String(parts[1].trimmingPrefix("\"").dropLast(parts[1].hasSuffix("\"") ? 1 : 0))
            }
            self.labels = labels
        }
    }
}
