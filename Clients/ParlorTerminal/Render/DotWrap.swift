import Foundation

/// A summary line of `·`-separated facts ("Match QX7KM · 501 · straight in · double out · first to 1
/// leg") that a narrow terminal cannot hold is broken between facts onto more lines, each indented as
/// the first, instead of losing its end to "…". A single fact wider than the line is still cut.
enum DotWrap {
    static let separator = " · "

    static func lines(_ line: ScreenLine, width: Int) -> [ScreenLine] {
        guard line.width > width else { return [line] }
        let indent = String(line.text.prefix { $0 == " " })
        // The facts, each a run of spans (a fact may change style midway).
        var facts: [[Span]] = [[]]
        var first = true
        for span in line.spans {
            var text = span.text
            if first {
                text = String(text.dropFirst(indent.count))
                first = false
            }
            let pieces = text.components(separatedBy: separator)
            for (index, piece) in pieces.enumerated() {
                if index > 0 { facts.append([]) }
                if !piece.isEmpty { facts[facts.count - 1].append(Span(piece, span.style)) }
            }
        }
        facts.removeAll { $0.isEmpty }
        var out: [ScreenLine] = []
        var current = ScreenLine(indent)
        var empty = true
        for fact in facts {
            let factWidth = fact.reduce(0) { $0 + TextWidth.of($1.text) }
            if !empty, current.width + TextWidth.of(separator) + factWidth > width {
                out.append(current)
                current = ScreenLine(indent)
                empty = true
            }
            if !empty { current.append(separator, fact.first?.style ?? .plain) }
            current.spans += fact
            empty = false
        }
        out.append(current)
        return out.map { $0.truncated(to: width) }
    }
}
