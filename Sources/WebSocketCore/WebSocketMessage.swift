import NIOCore

/// A whole WebSocket message: fragments assembled, decompressed, and (for text) UTF-8 validated.
public struct WebSocketMessage: Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        case text
        case binary
    }

    public var kind: Kind
    /// The payload. For `.text` it is guaranteed to be valid UTF-8.
    public var data: ByteBuffer

    public init(kind: Kind, data: ByteBuffer) {
        self.kind = kind
        self.data = data
    }

    public static func text(_ string: String) -> WebSocketMessage {
        WebSocketMessage(kind: .text, data: ByteBuffer(string: string))
    }

    public static func binary(_ data: ByteBuffer) -> WebSocketMessage {
        WebSocketMessage(kind: .binary, data: data)
    }

    /// The payload as a string (for text messages, lossless).
    public var text: String { String(buffer: data) }

    var opcode: WebSocketOpcode { kind == .text ? .text : .binary }

    public var description: String {
        kind == .text ? "text(\(data.readableBytes) bytes)" : "binary(\(data.readableBytes) bytes)"
    }
}

/// What the application asks the connection to send. Internal to WebSocketCore: the public surface is
/// ``WebSocket``'s methods.
enum WebSocketOutbound: Sendable {
    case message(WebSocketMessage)
    case prepared(PreparedMessage)
    case ping(ByteBuffer)
    case close(WebSocketCloseCode, String)
}
