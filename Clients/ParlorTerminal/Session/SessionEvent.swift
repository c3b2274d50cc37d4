import ParlorClient
import ParlorRules
import ParlorWire

/// Everything a session reacts to, merged into one stream so one loop handles them in order. Times are
/// this device's clock when the event was read, so the logic itself never reads a clock.
enum SessionEvent<Game: TerminalGame>: Sendable {
    case update(Game.Update, receivedAt: Instant)
    /// The game's stream ended (the place was deleted, or the client closed).
    case streamEnded
    case connection(ConnectionState)
    /// Who of the players is connected changed.
    case presence(PresenceView)
    /// Who may join and watch the game changed (its `access` events: locked, private).
    case access(GameAccessView)
    case key(Key)
    case line(String)
    case inputEnded
    case resize
    /// A second passed: redraw the countdown (only games that show one get these).
    case tick(Instant)
    /// SIGINT, SIGTERM or SIGHUP.
    case signal(Int32)
    /// The server answered an action.
    case actionFinished(Game.Action, Result<Game.ActionResult, ParlorClientError>)
}
