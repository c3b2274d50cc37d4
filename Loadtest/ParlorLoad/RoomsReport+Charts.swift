/// A `rooms` or `darts` run's distributions by percentile, as the report keeps them.
struct LatencyPercentiles: Codable, Sendable {
    /// Action due → its reply.
    var reply: [PercentilePoint]
    /// Action due → every member of the room holds the version.
    var fanOut: [PercentilePoint]
}

/// What `--report`'s page draws for a `rooms` or `darts` run.
extension RoomsReport {
    var title: String {
        "parlor-load \(parameters.game.scenario): \(parameters.rooms) \(parameters.game.plural) × \(parameters.players) players, \(context.startedAt)"
    }

    var charts: ReportCharts {
        let seconds = timeline.map { Double($0.second) }
        func series(_ name: String, _ values: [Double?]) -> SVGLineChart.Series {
            SVGLineChart.Series(name: name, points: zip(seconds, values).map { ($0, $1) })
        }
        let latency = SVGLineChart(
            title: "Latency per second (the second's p99 and largest)", xLabel: "seconds since the run began", yLabel: "ms",
            series: [
                series("reply p99", timeline.map(\.replyP99)), series("reply max", timeline.map(\.replyMax)),
                series("fan-out p99", timeline.map(\.fanOutP99)), series("fan-out max", timeline.map(\.fanOutMax)),
            ])
        let rates = SVGLineChart(
            title: "Messages per second", xLabel: "seconds since the run began", yLabel: "per second",
            series: [
                series("\(parameters.game.actions) sent", timeline.map { Double($0.actions) }),
                series("replies", timeline.map { Double($0.replies) }), series("events", timeline.map { Double($0.events) }),
            ])
        func curve(_ name: String, _ points: [PercentilePoint]) -> SVGLineChart.Series {
            SVGLineChart.Series(name: name, points: points.map { ($0.percentile, $0.milliseconds) })
        }
        let distribution = SVGLineChart(
            title: "Latency by percentile (whole run)", xLabel: "percentile", yLabel: "ms", xScale: .percentile,
            series: [curve("action → reply", percentiles.reply), curve("action → every member has it", percentiles.fanOut)])
        return ReportCharts(overTime: [latency, rates], byPercentile: [distribution])
    }
}
