import Prometheus

/// Every Parlor metric is made with its help text: the registry prints it as `# HELP`.
extension PrometheusCollectorRegistry {
    func gauge(_ name: String, labels: [(String, String)] = [], help: String) -> Gauge {
        makeGauge(descriptor: Self.descriptor(name, help: help), labels: labels)
    }

    func counter(_ name: String, labels: [(String, String)] = [], help: String) -> Counter {
        makeCounter(descriptor: Self.descriptor(name, help: help), labels: labels)
    }

    func durationHistogram(_ name: String, labels: [(String, String)] = [], buckets: [Duration], help: String) -> DurationHistogram {
        makeDurationHistogram(descriptor: Self.descriptor(name, help: help), labels: labels, buckets: buckets)
    }

    /// The whole name as given (no unit appended: Parlor's names carry theirs).
    private static func descriptor(_ name: String, help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(metricName: name, unitName: "", helpText: help)
    }
}
