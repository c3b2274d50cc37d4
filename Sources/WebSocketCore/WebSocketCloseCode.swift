/// A close status code (RFC 6455 §7.4), with a name for every code Parlor sends or checks.
public struct WebSocketCloseCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt16

    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public static let normalClosure = WebSocketCloseCode(rawValue: 1000)
    public static let goingAway = WebSocketCloseCode(rawValue: 1001)
    public static let protocolError = WebSocketCloseCode(rawValue: 1002)
    public static let unsupportedData = WebSocketCloseCode(rawValue: 1003)
    /// Never sent: reported to the application when a close frame carried no code.
    public static let noStatusReceived = WebSocketCloseCode(rawValue: 1005)
    /// Never sent: reported to the application when the connection ended without a close frame.
    public static let abnormalClosure = WebSocketCloseCode(rawValue: 1006)
    public static let invalidPayloadData = WebSocketCloseCode(rawValue: 1007)
    public static let policyViolation = WebSocketCloseCode(rawValue: 1008)
    public static let messageTooBig = WebSocketCloseCode(rawValue: 1009)
    public static let mandatoryExtension = WebSocketCloseCode(rawValue: 1010)
    public static let internalError = WebSocketCloseCode(rawValue: 1011)
    /// The server is restarting (IANA's registry, after RFC 6455): reconnect, and expect to land
    /// elsewhere. A draining node of a cluster closes its clients with it.
    public static let serviceRestart = WebSocketCloseCode(rawValue: 1012)
    /// The server is overloaded for now: reconnect later (IANA's registry).
    public static let tryAgainLater = WebSocketCloseCode(rawValue: 1013)

    /// Codes a peer may put in a close frame: 1000–1003, 1007–1014 (RFC 6455's and the three IANA
    /// registered since: service restart, try again later, bad gateway) and the registered/private
    /// range 3000–4999. Anything else received in a close frame is a protocol error (1002); 1015 (a
    /// failed TLS handshake) is only ever reported, never sent.
    public var isValidOnWire: Bool {
        switch rawValue {
        case 1000...1003, 1007...1014, 3000...4999: true
        default: false
        }
    }

    public var description: String {
        switch self {
        case .normalClosure: "1000 normal closure"
        case .goingAway: "1001 going away"
        case .protocolError: "1002 protocol error"
        case .unsupportedData: "1003 unsupported data"
        case .noStatusReceived: "1005 no status received"
        case .abnormalClosure: "1006 abnormal closure"
        case .invalidPayloadData: "1007 invalid payload data"
        case .policyViolation: "1008 policy violation"
        case .messageTooBig: "1009 message too big"
        case .mandatoryExtension: "1010 mandatory extension"
        case .internalError: "1011 internal error"
        case .serviceRestart: "1012 service restart"
        case .tryAgainLater: "1013 try again later"
        default: "\(rawValue)"
        }
    }
}

/// How a connection ended, as the application sees it.
public struct WebSocketCloseStatus: Sendable, Equatable, CustomStringConvertible {
    public var code: WebSocketCloseCode
    public var reason: String

    public init(code: WebSocketCloseCode, reason: String = "") {
        self.code = code
        self.reason = reason
    }

    public static let abnormal = WebSocketCloseStatus(code: .abnormalClosure)

    public var description: String { reason.isEmpty ? code.description : "\(code) (\(reason))" }
}
