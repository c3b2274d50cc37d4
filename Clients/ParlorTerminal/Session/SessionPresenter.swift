import ParlorWire

/// Shows a session: drawn on the screen, or written as JSON lines.
protocol SessionPresenter {
    func begin(_ state: RoomScreenState)
    /// Something happened (`outputs` says what, possibly nothing worth a line); `state` already includes it.
    func present(_ outputs: [SessionOutput], state: RoomScreenState)
    /// The session is over; `farewell` is a sentence to leave on the terminal.
    func end(farewell: String?)
}

/// One JSON object per line on stdout: `{"event":"room","room":{…}}`.
final class JSONLinesPresenter: SessionPresenter {
    func begin(_ state: RoomScreenState) {}

    func present(_ outputs: [SessionOutput], state: RoomScreenState) {
        for output in outputs { StandardStreams.printLine(output.jsonLine) }
    }

    func end(farewell: String?) {}
}

/// The full-screen view: redrawn from scratch on every event, at the terminal's current size.
final class ScreenPresenter: SessionPresenter {
    private var active = false

    func begin(_ state: RoomScreenState) {
        active = TerminalDevice.enterFullScreen()
        draw(state)
    }

    func present(_ outputs: [SessionOutput], state: RoomScreenState) {
        draw(state)
    }

    func end(farewell: String?) {
        if active { TerminalDevice.restore() }
        active = false
        if let farewell { StandardStreams.printLine(farewell) }
    }

    private func draw(_ state: RoomScreenState) {
        guard active else { return }
        let size = TerminalDevice.size()
        StandardStreams.write(ANSI.frame(RoomScreen.render(state, width: size.width, height: size.height)))
    }
}
