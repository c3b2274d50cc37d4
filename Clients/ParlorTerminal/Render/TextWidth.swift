/// Display columns of text in a terminal: most characters take one, East Asian wide characters and
/// emoji take two, combining marks none. Names come from people, so the grid must not fall apart
/// when one of them is "李雷" or "Zoë 🎲".
public enum TextWidth {
    public static func of(_ text: String) -> Int {
        text.reduce(0) { $0 + of($1) }
    }

    public static func of(_ character: Character) -> Int {
        guard let first = character.unicodeScalars.first else { return 0 }
        let value = first.value
        if value < 0x20 || (0x7F..<0xA0).contains(value) { return 0 }
        if first.properties.isEmojiPresentation { return 2 }
        if character.unicodeScalars.contains(where: { $0.value == 0xFE0F }) { return 2 }
        switch value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
             0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
             0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD:
            return 2
        default:
            return 1
        }
    }

    /// The longest prefix of `text` that fits in `width` columns.
    public static func prefix(_ text: String, width: Int) -> String {
        var used = 0
        var out = ""
        for character in text {
            let w = of(character)
            if used + w > width { break }
            used += w
            out.append(character)
        }
        return out
    }

    /// `text` cut to `width` columns (with "…" when cut).
    public static func fit(_ text: String, width: Int) -> String {
        guard of(text) > width else { return text }
        guard width > 0 else { return "" }
        return prefix(text, width: width - 1) + "…"
    }

    /// `text` fitted, then padded with spaces to exactly `width` columns.
    public static func pad(_ text: String, to width: Int, alignRight: Bool = false) -> String {
        let fitted = fit(text, width: width)
        let padding = String(repeating: " ", count: max(width - of(fitted), 0))
        return alignRight ? padding + fitted : fitted + padding
    }
}
