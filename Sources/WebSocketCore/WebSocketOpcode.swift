/// A frame's opcode (RFC 6455 §5.2). Unknown values are kept, so the decoder can reject them with 1002.
public struct WebSocketOpcode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt8

    public init(rawValue: UInt8) { self.rawValue = rawValue & 0x0F }

    public static let continuation = WebSocketOpcode(rawValue: 0x0)
    public static let text = WebSocketOpcode(rawValue: 0x1)
    public static let binary = WebSocketOpcode(rawValue: 0x2)
    public static let close = WebSocketOpcode(rawValue: 0x8)
    public static let ping = WebSocketOpcode(rawValue: 0x9)
    public static let pong = WebSocketOpcode(rawValue: 0xA)

    /// Control frames have the high bit of the opcode set (§5.5).
    public var isControl: Bool { rawValue & 0x8 != 0 }

    /// Whether RFC 6455 defines this opcode; 0x3–0x7 and 0xB–0xF are reserved.
    public var isDefined: Bool {
        switch self {
        case .continuation, .text, .binary, .close, .ping, .pong: true
        default: false
        }
    }

    public var description: String {
        switch self {
        case .continuation: "continuation"
        case .text: "text"
        case .binary: "binary"
        case .close: "close"
        case .ping: "ping"
        case .pong: "pong"
        default: "reserved(0x\(String(rawValue, radix: 16)))"
        }
    }
}
