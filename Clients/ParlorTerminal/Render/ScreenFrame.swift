import ParlorClient

/// The top line of every screen: the server on the left; the connection, and the version shown, on the
/// right. When the width cannot hold both, only the right side is drawn.
enum StatusBar {
    static func line(server: String, connection: ConnectionState, version: Int?, width: Int) -> ScreenLine {
        let title = "Parlor · \(server)"
        var status: Span
        switch connection {
        case .connecting: status = Span("◌ connecting…", .warning)
        case .connected: status = Span("● connected", .good)
        case .reconnecting(let attempt, _): status = Span("◌ reconnecting… (attempt \(attempt))", .warning)
        case .closed: status = Span("✗ disconnected", .bad)
        }
        if let version { status.text += " · v\(version)" }
        let gap = width - TextWidth.of(title) - TextWidth.of(status.text)
        guard gap >= 2 else { return ScreenLine([status]) }
        return ScreenLine([Span(title, .bold), Span(String(repeating: " ", count: gap)), status])
    }
}

/// The bottom line of every screen: the keys that work right now, `[key] what it does`.
enum KeysLine {
    static func line(_ keys: [(key: String, label: String)]) -> ScreenLine {
        var line = ScreenLine("  ")
        for (index, (key, label)) in keys.enumerated() {
            if index > 0 { line.append("  ") }
            line.append("[\(key)]", .bold)
            line.append(" \(label)")
        }
        return line
    }
}
