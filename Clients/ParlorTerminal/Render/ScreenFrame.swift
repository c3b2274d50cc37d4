import ParlorClient
import ParlorWire

/// The top line of every screen: the server on the left; the connection, the version shown, and whether
/// the game is private and locked, on the right. When the width cannot hold both, only the right side is
/// drawn.
enum StatusBar {
    static func line(server: String, connection: ConnectionState, version: Int?, access: GameAccessView? = nil, width: Int) -> ScreenLine {
        let title = "Parlor · \(server)"
        var status: Span
        switch connection {
        case .connecting: status = Span("◌ connecting…", .warning)
        case .connected: status = Span("● connected", .good)
        case .reconnecting(let attempt, _): status = Span("◌ reconnecting… (attempt \(attempt))", .warning)
        case .closed: status = Span("✗ disconnected", .bad)
        }
        if let version { status.text += " · v\(version)" }
        if access?.private == true { status.text += " · private" }
        if access?.locked == true { status.text += " · locked" }
        let gap = width - TextWidth.of(title) - TextWidth.of(status.text)
        guard gap >= 2 else { return ScreenLine([status]) }
        return ScreenLine([Span(title, .bold), Span(String(repeating: " ", count: gap)), status])
    }
}

/// The bottom line of every screen: the keys that work right now, `[key] what it does`. On a narrow
/// terminal it tightens (`[r]ready [q]quit`) and then drops keys from the front, never the last one
/// (`[q] quit` or `[Esc] quit`), so the way out is always on screen.
enum KeysLine {
    static func line(_ keys: [(key: String, label: String)], width: Int = .max) -> ScreenLine {
        var kept = keys
        while true {
            for tight in [false, true] {
                let line = draw(kept, tight: tight)
                if TextWidth.of(line.text) <= width || kept.count <= 1 && tight { return line }
            }
            kept.removeFirst()
        }
    }

    private static func draw(_ keys: [(key: String, label: String)], tight: Bool) -> ScreenLine {
        var line = ScreenLine(tight ? " " : "  ")
        for (index, (key, label)) in keys.enumerated() {
            if index > 0 { line.append(tight ? " " : "  ") }
            line.append("[\(key)]", .bold)
            line.append(tight ? label : " \(label)")
        }
        return line
    }
}

/// The frame of every full screen: the status bar on top, the body in the rows between, the bottom lines
/// (message, input, keys) at the foot — exactly `height` lines, none wider than `width` columns. A short
/// terminal loses the body's last rows first, then the bottom lines' first.
enum ScreenLayout {
    static func compose(
        status: ScreenLine, bottom: [ScreenLine], width: Int, height: Int, body: (_ rows: Int) -> [ScreenLine]
    ) -> [ScreenLine] {
        let rows = max(height - 1 - bottom.count, 0)
        var lines = [status] + body(rows).prefix(rows)
        while lines.count < height - bottom.count { lines.append("") }
        lines += bottom.suffix(max(height - lines.count, 0))
        return lines.prefix(height).map { $0.truncated(to: width) }
    }
}
