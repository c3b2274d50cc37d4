/// How a run of text is drawn. Only the terminal layer turns these into escape codes; tests read the
/// text alone.
public enum TextStyle: Sendable, Equatable {
    case plain
    case bold
    case dim
    /// Reverse video: the current round's column.
    case highlight
    case good
    case warning
    case bad
    /// A colour of the terminal's 256-colour palette (0–255): a player's chosen colour.
    case color(Int)
    /// Two pixels in one cell, drawn as `▀` in true colour: the top one in front, the bottom one behind.
    case pixels(top: RGB, bottom: RGB)
}

/// A true colour.
public struct RGB: Sendable, Equatable {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8

    public init(_ red: UInt8, _ green: UInt8, _ blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }
}

/// A run of text in one style.
public struct Span: Sendable, Equatable {
    public var text: String
    public var style: TextStyle

    public init(_ text: String, _ style: TextStyle = .plain) {
        self.text = text
        self.style = style
    }
}

/// One row of the screen.
public struct ScreenLine: Sendable, Equatable, ExpressibleByStringLiteral {
    public var spans: [Span]

    public init(_ spans: [Span] = []) {
        self.spans = spans
    }

    public init(_ text: String, _ style: TextStyle = .plain) {
        self.spans = text.isEmpty ? [] : [Span(text, style)]
    }

    public init(stringLiteral value: String) {
        self.init(value)
    }

    /// The text that would be drawn.
    public var text: String { spans.map(\.text).joined() }

    public var width: Int { TextWidth.of(text) }

    public mutating func append(_ text: String, _ style: TextStyle = .plain) {
        guard !text.isEmpty else { return }
        spans.append(Span(text, style))
    }

    /// Cut to `width` display columns; the last visible column becomes "…" when anything was cut.
    public func truncated(to width: Int) -> ScreenLine {
        guard self.width > width else { return self }
        guard width > 0 else { return ScreenLine() }
        var remaining = width - 1
        var out: [Span] = []
        for span in spans {
            let spanWidth = TextWidth.of(span.text)
            if spanWidth <= remaining {
                out.append(span)
                remaining -= spanWidth
                continue
            }
            let head = TextWidth.prefix(span.text, width: remaining)
            if !head.isEmpty { out.append(Span(head, span.style)) }
            break
        }
        out.append(Span("…", out.last?.style ?? .plain))
        return ScreenLine(out)
    }
}
