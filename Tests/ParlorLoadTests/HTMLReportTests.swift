import Foundation
import Testing
@testable import ParlorLoad

/// `--report`'s page, drawn from known data: the SVG places every point where the axes say, breaks a
/// line at a missing second, spreads percentiles towards the tail, and the page is self-contained.
@Suite struct HTMLReportTests {
    /// Pixel coordinates of a chart's polylines, as (x, y) pairs.
    private static func polylines(_ svg: String) -> [[(Double, Double)]] {
        svg.components(separatedBy: "points=\"").dropFirst().map { rest in
            rest.prefix { $0 != "\"" }.split(separator: " ").map { pair in
                let xy = pair.split(separator: ",").compactMap { Double($0) }
                return (xy[0], xy[1])
            }
        }
    }

    @Test func ticksAreRoundAndCoverTheData() {
        #expect(SVGLineChart.ticks(upTo: 12.3) == [0, 5, 10, 15])
        #expect(SVGLineChart.ticks(upTo: 1) == [0, 0.2, 0.4, 0.6000000000000001, 0.8, 1])
        #expect(SVGLineChart.ticks(upTo: 950) == [0, 200, 400, 600, 800, 1000])
        #expect(SVGLineChart.ticks(from: 2, upTo: 4) == [2, 2.5, 3, 3.5, 4])
        #expect(SVGLineChart.label(0.6000000000000001) == "0.6")
        #expect(SVGLineChart.label(2.5) == "2.5")
        #expect(SVGLineChart.label(1000) == "1000")
    }

    @Test func pointsLandWhereTheAxesSay() throws {
        // x 0…10 over the plot's 660 px from x = 64; y 0…20 (ticks 0, 5, …, 20) over 220 px up from y = 256.
        let chart = SVGLineChart(
            title: "t", xLabel: "s", yLabel: "ms",
            series: [.init(name: "a", points: [(0, 0), (5, 10), (10, 20)])])
        let lines = Self.polylines(chart.svg)
        #expect(lines.count == 1)
        let points = try #require(lines.first)
        #expect(points.map(\.0) == [64, 394, 724])
        #expect(points.map(\.1) == [256, 146, 36])
        #expect(chart.svg.contains(">20</text>"))
        #expect(chart.svg.contains(">a</text>"))
    }

    @Test func aMissingSecondBreaksTheLineAndALoneValueIsADot() {
        let chart = SVGLineChart(
            title: "t", xLabel: "s", yLabel: "ms",
            series: [.init(name: "a", points: [(0, 1), (1, 2), (2, nil), (3, 2), (4, 3), (5, nil), (6, 1)])])
        let lines = Self.polylines(chart.svg)
        #expect(lines.map(\.count) == [2, 2])
        #expect(chart.svg.components(separatedBy: "<circle").count == 2, "the value at 6 s stands alone")
    }

    @Test func percentilesSpreadTowardsTheTail() throws {
        let chart = SVGLineChart(
            title: "t", xLabel: "percentile", yLabel: "ms", xScale: .percentile,
            series: [.init(name: "a", points: [(0, 1), (90, 2), (99, 3), (99.9, 4), (100, 5)])])
        let xs = try #require(Self.polylines(chart.svg).first).map(\.0)
        // log10(1 / (1 − p)): 0, 1, 2, 3, and 100 % drawn at 99.999 % (5): equal steps per nine.
        #expect(xs == [64, 196, 328, 460, 724])
        #expect(chart.svg.contains(">99.9%</text>"))
    }

    @Test func aChartWithNothingRecordedSaysSo() {
        let chart = SVGLineChart(title: "Latency <p99>", xLabel: "s", yLabel: "ms", series: [.init(name: "a", points: [(0, nil)])])
        #expect(chart.svg == "<p class=\"empty\">Latency &lt;p99&gt;: nothing was recorded.</p>")
    }

    @Test func thePageIsSelfContainedAndEscapesTheTable() {
        let charts = ReportCharts(
            overTime: [SVGLineChart(title: "over", xLabel: "s", yLabel: "ms", series: [.init(name: "a", points: [(0, 1), (1, 2)])])],
            byPercentile: [SVGLineChart(title: "pct", xLabel: "p", yLabel: "ms", xScale: .percentile, series: [.init(name: "b", points: [(50, 1), (99, 2)])])])
        let page = HTMLReport.page(title: "run", table: "a < b & c", charts: charts, passed: false)
        #expect(page.hasPrefix("<!DOCTYPE html>"))
        #expect(page.components(separatedBy: "<svg").count == 3)
        #expect(page.contains("<pre>a &lt; b &amp; c</pre>"))
        #expect(page.contains(">FAILED</p>"))
        for outside in ["<script", "src=", "href=", "@import", "url("] {
            #expect(!page.contains(outside), "the page must not reach out: \(outside)")
        }
        // The only address on the page is SVG's namespace, which browsers do not fetch.
        #expect(page.components(separatedBy: "http").count - 1 == page.components(separatedBy: "http://www.w3.org/2000/svg").count - 1)
    }

    @Test func aRunsServerFiguresAreTheDifferenceOfTwoReadings() throws {
        func text(_ counts: [Int], sum: Double) -> String {
            let bounds = ["0.001", "0.01", "+Inf"]
            return zip(bounds, counts).map { "parlor_broadcast_latency_seconds_bucket{le=\"\($0)\"} \($1)" }.joined(separator: "\n")
                + "\nparlor_broadcast_latency_seconds_sum \(sum)\nparlor_broadcast_latency_seconds_count \(counts.last ?? 0)\n"
        }
        let start = try #require(MetricsScrape.buckets("parlor_broadcast_latency_seconds", in: text([10, 10, 10], sum: 0.005)))
        let end = try #require(MetricsScrape.buckets("parlor_broadcast_latency_seconds", in: text([10, 13, 14], sum: 0.035)))
        let difference = try #require(end.since(start))
        let run = try #require(difference.summary)
        #expect(run.count == 4)
        #expect(run.p50AtMost == 10)
        #expect(run.p99AtMost == nil, "the largest fell past the last bound")
        #expect(abs((run.mean ?? 0) - 7.5) < 1e-9)
        #expect(end.summary?.count == 14)
        // A server that restarted between the readings has counts that went down: no difference.
        #expect(start.since(end) == nil)
    }

    @Test func progressIsRedrawnInPlaceOnATerminalAndALinePerSecondOtherwise() {
        final class Capture: @unchecked Sendable {
            var text = ""
        }
        let terminal = Capture()
        let inPlace = ProgressLine(inPlace: true) { terminal.text += $0 }
        inPlace.update("[1s] a")
        inPlace.update("[2s] b")
        inPlace.message("warning")
        inPlace.update("[3s] c")
        inPlace.end()
        #expect(terminal.text == "\r[1s] a\u{1B}[K\r[2s] b\u{1B}[K\nwarning\n\r[3s] c\u{1B}[K\n")

        let piped = Capture()
        let lines = ProgressLine(inPlace: false) { piped.text += $0 }
        lines.update("[1s] a")
        lines.update("[2s] b")
        lines.end()
        #expect(piped.text == "[1s] a\n[2s] b\n")
    }
}
