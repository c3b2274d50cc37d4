import NIOCore

/// One WebSocket frame (RFC 6455 §5.2). `payload` is always unmasked.
public struct WebSocketFrame: Sendable, Equatable {
    public var fin: Bool
    public var rsv1: Bool
    public var rsv2: Bool
    public var rsv3: Bool
    public var opcode: WebSocketOpcode
    /// The key the frame was masked with on the wire, if any.
    public var maskingKey: WebSocketMaskingKey?
    public var payload: ByteBuffer

    public init(
        fin: Bool = true, rsv1: Bool = false, rsv2: Bool = false, rsv3: Bool = false,
        opcode: WebSocketOpcode, maskingKey: WebSocketMaskingKey? = nil, payload: ByteBuffer
    ) {
        self.fin = fin
        self.rsv1 = rsv1
        self.rsv2 = rsv2
        self.rsv3 = rsv3
        self.opcode = opcode
        self.maskingKey = maskingKey
        self.payload = payload
    }
}

/// A violation of the protocol by the peer, with the close code the connection is failed with.
public struct WebSocketProtocolError: Error, Sendable, Equatable, CustomStringConvertible {
    public var closeCode: WebSocketCloseCode
    public var reason: String

    public init(_ closeCode: WebSocketCloseCode, _ reason: String) {
        self.closeCode = closeCode
        self.reason = reason
    }

    public var description: String { "\(closeCode): \(reason)" }
}
