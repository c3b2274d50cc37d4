/// Shows a session: drawn on the screen, or written as JSON lines.
protocol SessionPresenter<Game> {
    associatedtype Game: TerminalGame

    func begin(_ screen: Game.Screen)
    /// Something happened (`outputs` says what, possibly nothing worth a line); `screen` already includes it.
    func present(_ outputs: [Game.Output], screen: Game.Screen)
    /// The session is over; `farewell` is a sentence to leave on the terminal.
    func end(farewell: String?)
}

/// One JSON object per line on stdout: `{"event":"room","room":{…}}`.
final class JSONLinesPresenter<Game: TerminalGame>: SessionPresenter {
    func begin(_ screen: Game.Screen) {}

    func present(_ outputs: [Game.Output], screen: Game.Screen) {
        for output in outputs { StandardStreams.printLine(output.jsonLine) }
    }

    func end(farewell: String?) {}
}

/// The full-screen view: redrawn from scratch on every event (and every tick, for a countdown), at the
/// terminal's current size.
final class ScreenPresenter<Game: TerminalGame>: SessionPresenter {
    private var active = false

    func begin(_ screen: Game.Screen) {
        active = TerminalDevice.enterFullScreen()
        draw(screen)
    }

    func present(_ outputs: [Game.Output], screen: Game.Screen) {
        draw(screen)
    }

    func end(farewell: String?) {
        if active { TerminalDevice.restore() }
        active = false
        if let farewell { StandardStreams.printLine(farewell) }
    }

    private func draw(_ screen: Game.Screen) {
        guard active else { return }
        let size = TerminalDevice.size()
        StandardStreams.write(ANSI.frame(Game.render(screen, size.width, size.height)))
    }
}
