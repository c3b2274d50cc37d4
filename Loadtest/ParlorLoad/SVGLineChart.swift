import Foundation

/// A line chart as inline SVG, drawn by hand: axes with rounded ticks, one polyline per series, a
/// legend. No script and nothing fetched, so a report opens anywhere, offline, as it was written.
struct SVGLineChart {
    /// How x values are placed along the axis.
    enum XScale {
        /// Seconds of a run, evenly spaced.
        case linear
        /// Percentiles (0…100), spread so the tail gets the room: position ∝ log10(1 / (1 − p/100)).
        case percentile
    }

    struct Series {
        var name: String
        /// (x, y) in the chart's units; nil y values break the line.
        var points: [(x: Double, y: Double?)]
    }

    var title: String
    var xLabel: String
    var yLabel: String
    var xScale: XScale = .linear
    var series: [Series]

    static let width = 760.0
    static let height = 320.0
    private static let margin = (left: 64.0, right: 36.0, top: 36.0, bottom: 64.0)
    static let colors = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b"]
    /// The highest percentile the percentile scale shows (99.999 %); larger ones are drawn there.
    private static let percentileCeiling = 99.999

    /// The chart, or a sentence saying there was nothing to draw.
    var svg: String {
        let ys = series.flatMap { $0.points.compactMap(\.y) }.filter(\.isFinite)
        let xs = series.flatMap { $0.points.filter { $0.y != nil }.map { position($0.x) } }
        guard !ys.isEmpty, let xMin = xs.min(), let xMax = xs.max() else {
            return "<p class=\"empty\">\(Self.escape(title)): nothing was recorded.</p>"
        }
        let yTicks = Self.ticks(upTo: ys.max() ?? 1)
        let yMax = yTicks.last ?? 1
        let xRange = xMax > xMin ? (xMin, xMax) : (xMin, xMin + 1)
        let m = Self.margin
        let plotWidth = Self.width - m.left - m.right
        let plotHeight = Self.height - m.top - m.bottom
        func px(_ x: Double) -> Double { m.left + (position(x) - xRange.0) / (xRange.1 - xRange.0) * plotWidth }
        func pxPosition(_ p: Double) -> Double { m.left + (p - xRange.0) / (xRange.1 - xRange.0) * plotWidth }
        func py(_ y: Double) -> Double { m.top + plotHeight - min(y, yMax) / yMax * plotHeight }

        var out = """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \(Self.number(Self.width)) \(Self.number(Self.height))" \
            width="\(Self.number(Self.width))" height="\(Self.number(Self.height))" role="img" aria-label="\(Self.escape(title))">
            <text x="\(Self.number(m.left))" y="20" class="title">\(Self.escape(title))</text>

            """
        for tick in yTicks {
            let y = py(tick)
            out += "<line x1=\"\(Self.number(m.left))\" y1=\"\(Self.number(y))\" x2=\"\(Self.number(Self.width - m.right))\" y2=\"\(Self.number(y))\" class=\"grid\"/>"
            out += "<text x=\"\(Self.number(m.left - 6))\" y=\"\(Self.number(y + 4))\" text-anchor=\"end\">\(Self.label(tick))</text>\n"
        }
        for (position, label) in xTicks(in: xRange) {
            let x = pxPosition(position)
            out += "<line x1=\"\(Self.number(x))\" y1=\"\(Self.number(m.top + plotHeight))\" x2=\"\(Self.number(x))\" y2=\"\(Self.number(m.top + plotHeight + 4))\" class=\"axis\"/>"
            out += "<text x=\"\(Self.number(x))\" y=\"\(Self.number(m.top + plotHeight + 18))\" text-anchor=\"middle\">\(Self.escape(label))</text>\n"
        }
        out += "<line x1=\"\(Self.number(m.left))\" y1=\"\(Self.number(m.top + plotHeight))\" x2=\"\(Self.number(Self.width - m.right))\" y2=\"\(Self.number(m.top + plotHeight))\" class=\"axis\"/>\n"
        out += "<line x1=\"\(Self.number(m.left))\" y1=\"\(Self.number(m.top))\" x2=\"\(Self.number(m.left))\" y2=\"\(Self.number(m.top + plotHeight))\" class=\"axis\"/>\n"
        out += "<text x=\"\(Self.number(m.left + plotWidth / 2))\" y=\"\(Self.number(Self.height - 26))\" text-anchor=\"middle\">\(Self.escape(xLabel))</text>\n"
        out += "<text x=\"14\" y=\"\(Self.number(m.top + plotHeight / 2))\" text-anchor=\"middle\" transform=\"rotate(-90 14 \(Self.number(m.top + plotHeight / 2)))\">\(Self.escape(yLabel))</text>\n"
        for (index, line) in series.enumerated() {
            let color = Self.colors[index % Self.colors.count]
            // A missing value ends one stretch of line; the next value starts another.
            var stretches: [[String]] = [[]]
            for point in line.points {
                if let y = point.y, y.isFinite {
                    stretches[stretches.count - 1].append("\(Self.number(px(point.x))),\(Self.number(py(y)))")
                } else if !(stretches.last?.isEmpty ?? true) {
                    stretches.append([])
                }
            }
            for stretch in stretches where !stretch.isEmpty {
                if stretch.count == 1 {
                    let xy = stretch[0].split(separator: ",")
                    out += "<circle cx=\"\(xy[0])\" cy=\"\(xy[1])\" r=\"2.5\" fill=\"\(color)\"/>\n"
                } else {
                    out += "<polyline fill=\"none\" stroke=\"\(color)\" stroke-width=\"1.8\" points=\"\(stretch.joined(separator: " "))\"/>\n"
                }
            }
            let legendX = m.left + Double(index) * 170
            let legendY = Self.height - 8
            out += "<rect x=\"\(Self.number(legendX))\" y=\"\(Self.number(legendY - 9))\" width=\"12\" height=\"4\" fill=\"\(color)\"/>"
            out += "<text x=\"\(Self.number(legendX + 16))\" y=\"\(Self.number(legendY - 4))\">\(Self.escape(line.name))</text>\n"
        }
        out += "</svg>"
        return out
    }

    /// Where `x` sits along the axis before scaling to pixels.
    private func position(_ x: Double) -> Double {
        switch xScale {
        case .linear: return x
        case .percentile:
            let p = min(max(x, 0), Self.percentileCeiling)
            return log10(1 / (1 - p / 100))
        }
    }

    private func xTicks(in range: (Double, Double)) -> [(Double, String)] {
        switch xScale {
        case .linear:
            return Self.ticks(from: range.0, upTo: range.1).map { ($0, Self.label($0)) }
        case .percentile:
            return [0, 50, 90, 99, 99.9, 99.99, 99.999].map { (position($0), Self.label($0) + "%") }
                .filter { $0.0 >= range.0 - 1e-9 && $0.0 <= range.1 + 1e-9 }
        }
    }

    /// Round ticks from 0 to at least `maximum`: 1, 2 or 5 times a power of ten apart, about five of them.
    static func ticks(from minimum: Double = 0, upTo maximum: Double) -> [Double] {
        let span = maximum - minimum
        guard span > 0, span.isFinite else { return [minimum, minimum + 1] }
        let rough = span / 5
        let power = pow(10, floor(log10(rough)))
        let step = [1.0, 2, 5, 10].map { $0 * power }.first { $0 >= rough } ?? 10 * power
        let first = ceil(minimum / step) * step
        var ticks: [Double] = []
        var tick = first
        while tick < maximum + step * 0.999 {
            ticks.append(tick)
            tick += step
        }
        if minimum == 0, ticks.first != 0 { ticks.insert(0, at: 0) }
        return ticks
    }

    /// A tick's label: no trailing zeros, at most three decimals.
    static func label(_ value: Double) -> String {
        var text = String(format: "%.3f", value)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text == "-0" ? "0" : text
    }

    /// A coordinate with one decimal, so the same data always gives the same bytes.
    static func number(_ value: Double) -> String {
        String(format: "%.1f", value)
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
