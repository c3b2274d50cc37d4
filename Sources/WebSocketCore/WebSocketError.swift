/// Errors from using a connection.
public enum WebSocketError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The connection is closing or closed; nothing more can be sent.
    case closed
    /// A ping payload over 125 bytes (control frames carry at most 125).
    case controlPayloadTooLarge

    public var description: String {
        switch self {
        case .closed: "the WebSocket connection is closed"
        case .controlPayloadTooLarge: "control frame payloads are limited to 125 bytes"
        }
    }
}
