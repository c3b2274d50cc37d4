import ParlorClient
import ParlorWire

/// Everything a session reacts to, merged into one stream so one loop handles them in order.
enum SessionEvent: Sendable {
    case room(GameRoom?)
    /// The room stream ended (the room was deleted, or the client closed).
    case roomStreamEnded
    case connection(ConnectionState)
    case key(Key)
    case line(String)
    case inputEnded
    case resize
    /// SIGINT, SIGTERM or SIGHUP.
    case signal(Int32)
    case actionFinished(RoomAction, Result<GameRoom?, ParlorClientError>)
}
extension SessionEvent: TerminalInputEvent {}
