import ParlorClient
import ParlorRules
import ParlorWire

/// Everything a lobby session reacts to, merged into one stream so one loop handles them in order.
/// Times are this device's clock when the event was read, so the logic itself never reads a clock.
enum LobbySessionEvent: Sendable {
    case update(LobbyUpdate, receivedAt: Instant)
    /// The lobby stream ended (the lobby was deleted, or the client closed).
    case streamEnded
    case connection(ConnectionState)
    case key(Key)
    case line(String)
    case inputEnded
    case resize
    /// A second passed: redraw the countdown.
    case tick(Instant)
    /// SIGINT, SIGTERM or SIGHUP.
    case signal(Int32)
    /// The server answered an action; a word's verdict for `submitWord`, nothing for the others.
    case actionFinished(LobbyAction, Result<WordVerdictResult?, ParlorClientError>)
}
extension LobbySessionEvent: TerminalInputEvent {}
