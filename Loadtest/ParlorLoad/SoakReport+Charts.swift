/// What `--report`'s page draws for a soak: the server's levels over the run, which is what a soak
/// judges (memory, descriptors and threads must end where they settled).
extension SoakReport {
    var title: String { "parlor-load soak: \(parameters.rooms) rooms for \(Int(parameters.durationSeconds)) s, \(context.startedAt)" }

    var charts: ReportCharts {
        let seconds = samples.map(\.second)
        func series(_ name: String, _ values: [Double?]) -> SVGLineChart.Series {
            SVGLineChart.Series(name: name, points: zip(seconds, values).map { ($0, $1) })
        }
        let memory = SVGLineChart(
            title: "Server resident memory", xLabel: "seconds since the run began", yLabel: "MiB",
            series: [series("resident", samples.map { $0.residentBytes.map { Double($0) / 1_048_576 } })])
        let counts = SVGLineChart(
            title: "Server descriptors, threads and connections", xLabel: "seconds since the run began", yLabel: "count",
            series: [
                series("open files", samples.map { $0.openFiles.map(Double.init) }),
                series("threads", samples.map { $0.threads.map(Double.init) }),
                series("connections (server)", samples.map { $0.gauges["parlor_connections"] }),
                series("connections (generator)", samples.map { Double($0.generatorConnections) }),
            ])
        return ReportCharts(overTime: [memory, counts])
    }
}
