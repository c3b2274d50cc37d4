import Foundation

/// What a report draws beside its table: latency over the run's seconds, and latency by percentile.
struct ReportCharts {
    var overTime: [SVGLineChart] = []
    var byPercentile: [SVGLineChart] = []

    var isEmpty: Bool { overTime.isEmpty && byPercentile.isEmpty }
}

/// A latency distribution at the percentiles a percentile chart plots (milliseconds).
struct PercentilePoint: Codable, Sendable, Equatable {
    var percentile: Double
    var milliseconds: Double

    /// The percentiles sampled: the body, then ever further into the tail.
    static let percentiles: [Double] = [0, 25, 50, 75, 90, 95, 99, 99.5, 99.9, 99.95, 99.99, 99.999, 100]
}

/// `--report DIR`: the report as `report.json` and as `report.html`, one self-contained page — the
/// table, then the charts as inline SVG — that needs no script, stylesheet or font from anywhere.
enum HTMLReport {
    static func page(title: String, table: String, charts: ReportCharts, passed: Bool) -> String {
        var body = "<h1>\(SVGLineChart.escape(title))</h1>\n"
        body += "<p class=\"\(passed ? "passed" : "failed")\">\(passed ? "PASSED" : "FAILED")</p>\n"
        if !charts.overTime.isEmpty {
            body += "<h2>Over the run</h2>\n"
            for chart in charts.overTime { body += "<figure>\(chart.svg)</figure>\n" }
        }
        if !charts.byPercentile.isEmpty {
            body += "<h2>By percentile</h2>\n"
            for chart in charts.byPercentile { body += "<figure>\(chart.svg)</figure>\n" }
        }
        body += "<h2>Figures</h2>\n<pre>\(SVGLineChart.escape(table))</pre>\n"
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <title>\(SVGLineChart.escape(title))</title>
            <style>
            body { font-family: system-ui, sans-serif; margin: 2em; color: #222; }
            pre { font-size: 12px; background: #f6f6f6; padding: 1em; overflow-x: auto; }
            figure { margin: 1em 0; }
            svg { font-size: 11px; background: #fff; }
            svg .title { font-size: 14px; font-weight: bold; }
            svg .grid { stroke: #e4e4e4; }
            svg .axis { stroke: #444; }
            .passed { color: #2ca02c; font-weight: bold; }
            .failed { color: #d62728; font-weight: bold; }
            .empty { color: #777; }
            </style>
            </head>
            <body>
            \(body)</body>
            </html>

            """
    }

    /// Writes `report.json` and `report.html` into `directory`, creating it if needed.
    static func write(_ report: some LoadReport, title: String, to directory: String) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let base = URL(fileURLWithPath: directory)
        try writeJSON(report, to: base.appendingPathComponent("report.json").path)
        let html = page(title: title, table: report.table, charts: report.charts, passed: report.problems.isEmpty)
        try Data(html.utf8).write(to: base.appendingPathComponent("report.html"))
    }
}
