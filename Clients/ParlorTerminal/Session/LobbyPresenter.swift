/// Shows a lobby session: drawn on the screen, or written as JSON lines.
protocol LobbyPresenter {
    func begin(_ state: LobbyScreenState)
    /// Something happened (`outputs` says what, possibly nothing worth a line); `state` already includes it.
    func present(_ outputs: [LobbyOutput], state: LobbyScreenState)
    /// The session is over; `farewell` is a sentence to leave on the terminal.
    func end(farewell: String?)
}

/// One JSON object per line on stdout.
final class LobbyJSONLinesPresenter: LobbyPresenter {
    func begin(_ state: LobbyScreenState) {}

    func present(_ outputs: [LobbyOutput], state: LobbyScreenState) {
        for output in outputs { StandardStreams.printLine(output.jsonLine) }
    }

    func end(farewell: String?) {}
}

/// The full-screen view: redrawn from scratch on every event and every second, at the terminal's
/// current size.
final class LobbyScreenPresenter: LobbyPresenter {
    private var active = false

    func begin(_ state: LobbyScreenState) {
        active = TerminalDevice.enterFullScreen()
        draw(state)
    }

    func present(_ outputs: [LobbyOutput], state: LobbyScreenState) {
        draw(state)
    }

    func end(farewell: String?) {
        if active { TerminalDevice.restore() }
        active = false
        if let farewell { StandardStreams.printLine(farewell) }
    }

    private func draw(_ state: LobbyScreenState) {
        guard active else { return }
        let size = TerminalDevice.size()
        StandardStreams.write(ANSI.frame(LobbyScreen.render(state, width: size.width, height: size.height)))
    }
}
