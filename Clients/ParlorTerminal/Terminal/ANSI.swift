/// The escape sequences the interactive view uses, and the one place that turns styled lines into them.
enum ANSI {
    static let escape = "\u{1B}["
    static let enterAlternateScreen = escape + "?1049h"
    static let leaveAlternateScreen = escape + "?1049l"
    static let hideCursor = escape + "?25l"
    static let showCursor = escape + "?25h"
    static let clearScreen = escape + "2J" + escape + "H"
    static let clearToEndOfLine = escape + "K"
    static let resetStyle = escape + "0m"

    static func moveTo(row: Int, column: Int = 1) -> String {
        "\(escape)\(row);\(column)H"
    }

    static func code(for style: TextStyle) -> String {
        switch style {
        case .plain: ""
        case .bold: escape + "1m"
        case .dim: escape + "2m"
        case .highlight: escape + "7m"
        case .good: escape + "32m"
        case .warning: escape + "33m"
        case .bad: escape + "31m"
        case .color(let index): escape + ((0...255).contains(index) ? "38;5;\(index)m" : "39m")
        case .pixels(let top, let bottom):
            escape + "38;2;\(top.red);\(top.green);\(top.blue)m" + escape + "48;2;\(bottom.red);\(bottom.green);\(bottom.blue)m"
        }
    }

    /// A whole frame: every row rewritten in place (no clear, so nothing flickers).
    static func frame(_ lines: [ScreenLine]) -> String {
        var out = ""
        for (index, line) in lines.enumerated() {
            out += moveTo(row: index + 1)
            for span in line.spans {
                if span.style == .plain {
                    out += span.text
                } else {
                    out += code(for: span.style) + span.text + resetStyle
                }
            }
            out += clearToEndOfLine
        }
        return out
    }
}
