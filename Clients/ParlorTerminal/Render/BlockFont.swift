/// Block letters for room codes, five rows tall, so a code can be read out across a table.
public enum BlockFont {
    public static let height = 5
    public static let glyphWidth = 5
    public static let spacing = 2

    /// The rows of `text` in block letters; characters without a glyph are left blank.
    public static func render(_ text: String) -> [String] {
        let glyphs = text.uppercased().map { glyphsByCharacter[$0] ?? blank }
        return (0..<height).map { row in
            glyphs.map { $0[row] }.joined(separator: String(repeating: " ", count: spacing))
        }
    }

    /// A game's code in block letters, indented, for a screen `width` wide; none when it does not fit.
    static func lines(_ code: String, width: Int) -> [ScreenLine] {
        guard Self.width(of: code) + 2 <= width else { return [] }
        return render(code).map { ScreenLine("  " + $0, .bold) }
    }

    /// Columns `text` takes in block letters.
    public static func width(of text: String) -> Int {
        text.isEmpty ? 0 : text.count * glyphWidth + (text.count - 1) * spacing
    }

    private static let blank = Array(repeating: String(repeating: " ", count: glyphWidth), count: height)

    private static let glyphsByCharacter: [Character: [String]] = {
        var out: [Character: [String]] = [:]
        for (character, rows) in source {
            out[character] = rows.map { row in
                String(row.map { $0 == "#" ? "█" : " " }).padding(to: glyphWidth)
            }
        }
        return out
    }()

    private static let source: [Character: [String]] = [
        "A": [" ### ", "#   #", "#####", "#   #", "#   #"],
        "B": ["#### ", "#   #", "#### ", "#   #", "#### "],
        "C": [" ####", "#    ", "#    ", "#    ", " ####"],
        "D": ["#### ", "#   #", "#   #", "#   #", "#### "],
        "E": ["#####", "#    ", "#### ", "#    ", "#####"],
        "F": ["#####", "#    ", "#### ", "#    ", "#    "],
        "G": [" ####", "#    ", "#  ##", "#   #", " ####"],
        "H": ["#   #", "#   #", "#####", "#   #", "#   #"],
        "I": ["#####", "  #  ", "  #  ", "  #  ", "#####"],
        "J": ["#####", "   # ", "   # ", "#  # ", " ##  "],
        "K": ["#   #", "#  # ", "###  ", "#  # ", "#   #"],
        "L": ["#    ", "#    ", "#    ", "#    ", "#####"],
        "M": ["#   #", "## ##", "# # #", "#   #", "#   #"],
        "N": ["#   #", "##  #", "# # #", "#  ##", "#   #"],
        "O": [" ### ", "#   #", "#   #", "#   #", " ### "],
        "P": ["#### ", "#   #", "#### ", "#    ", "#    "],
        "Q": [" ### ", "#   #", "# # #", "#  # ", " ## #"],
        "R": ["#### ", "#   #", "#### ", "#  # ", "#   #"],
        "S": [" ####", "#    ", " ### ", "    #", "#### "],
        "T": ["#####", "  #  ", "  #  ", "  #  ", "  #  "],
        "U": ["#   #", "#   #", "#   #", "#   #", " ### "],
        "V": ["#   #", "#   #", "#   #", " # # ", "  #  "],
        "W": ["#   #", "#   #", "# # #", "## ##", "#   #"],
        "X": ["#   #", " # # ", "  #  ", " # # ", "#   #"],
        "Y": ["#   #", " # # ", "  #  ", "  #  ", "  #  "],
        "Z": ["#####", "   # ", "  #  ", " #   ", "#####"],
        "0": [" ### ", "#  ##", "# # #", "##  #", " ### "],
        "1": ["  #  ", " ##  ", "  #  ", "  #  ", " ### "],
        "2": [" ### ", "#   #", "  ## ", " #   ", "#####"],
        "3": ["#### ", "    #", " ### ", "    #", "#### "],
        "4": ["#   #", "#   #", "#####", "    #", "    #"],
        "5": ["#####", "#    ", "#### ", "    #", "#### "],
        "6": [" ### ", "#    ", "#### ", "#   #", " ### "],
        "7": ["#####", "    #", "   # ", "  #  ", "  #  "],
        "8": [" ### ", "#   #", " ### ", "#   #", " ### "],
        "9": [" ### ", "#   #", " ####", "    #", " ### "],
    ]
}

extension String {
    fileprivate func padding(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
