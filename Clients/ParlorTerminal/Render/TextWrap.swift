/// Greedy word wrapping by display columns, for instructions and lists of words.
public enum TextWrap {
    /// `text` broken into lines of at most `width` columns at spaces; a word wider than a line is cut.
    public static func lines(_ text: String, width: Int) -> [String] {
        let width = max(width, 1)
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: true).map(String.init) {
            if current.isEmpty {
                current = TextWidth.fit(word, width: width)
            } else if TextWidth.of(current) + 1 + TextWidth.of(word) <= width {
                current += " " + word
            } else {
                lines.append(current)
                current = TextWidth.fit(word, width: width)
            }
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }

    /// Pieces laid out left to right with `gap` columns between them, in rows of at most `width`
    /// columns, each row starting with `indent`. A piece keeps its own style.
    public static func flow(_ pieces: [Span], indent: String, gap: Int = 3, width: Int) -> [ScreenLine] {
        var lines: [ScreenLine] = []
        var current = ScreenLine(indent)
        var empty = true
        let indentWidth = TextWidth.of(indent)
        for piece in pieces {
            let pieceWidth = TextWidth.of(piece.text)
            if !empty, current.width + gap + pieceWidth > width {
                lines.append(current)
                current = ScreenLine(indent)
                empty = true
            }
            if !empty { current.append(String(repeating: " ", count: gap)) }
            current.append(TextWidth.fit(piece.text, width: max(width - indentWidth, 1)), piece.style)
            empty = false
        }
        if !empty { lines.append(current) }
        return lines
    }
}
