import FuzzSupport
import NIOCore
import ZlibReference
@testable import WebSocketCore

/// What RFC 6455 §5.4–§5.5 and RFC 7692 say must follow each decoded frame, kept apart from
/// `WebSocketConnectionStateMachine` so the two can be compared: fragments joined, compressed messages
/// inflated by zlib itself (no limit), text judged by the standard library, close frames read by hand.
///
/// When a frame breaks rules of more than one kind, any of their codes is a right answer; which one an
/// implementation reports first is its own business.
struct MessageModel {
    enum Expectation {
        case action(WebSocketConnectionStateMachine.Action)
        /// The connection must fail with one of these codes.
        case failure(Set<UInt16>)
    }

    private struct Message {
        var text: Bool
        var compressed: Bool
        var wireBytes: Int
        /// The message so far, inflated when compressed.
        var data: [UInt8]
    }

    let maxMessageSize: Int
    let maxDecompressedSize: Int
    let deflate: NegotiatedDeflate?
    private(set) var closeSent = false
    /// A close frame arrived: everything after it is ignored.
    private(set) var closeReceived = false
    private var message: Message?
    private var inflater: ReferenceInflater?

    init(maxMessageSize: Int, maxDecompressedSize: Int, deflate: NegotiatedDeflate?) {
        self.maxMessageSize = maxMessageSize
        self.maxDecompressedSize = maxDecompressedSize
        self.deflate = deflate
    }

    mutating func sendingClose() {
        if !closeReceived { closeSent = true }
    }

    mutating func expect(_ frame: WireModel.Frame) -> Expectation {
        if closeReceived { return .action(.none) }
        if frame.opcode >= 8 { return control(frame) }
        if closeSent { return .action(.none) }
        return data(frame)
    }

    /// What must follow the first bytes of a frame whose rest has not arrived (`frame.payload` is what
    /// has): a text message whose bytes so far cannot begin UTF-8 fails now (RFC 6455 §8.1: "as soon as"),
    /// whatever follows. Compressed text is judged when inflated, at the frame's end.
    func expectPartial(_ frame: WireModel.Frame) -> Expectation {
        if closeReceived || closeSent || frame.rsv1 || frame.payload.isEmpty { return .action(.none) }
        let text: [UInt8]
        switch frame.opcode {
        case 1 where message == nil:
            text = frame.payload
        case 0:
            guard let message, message.text, !message.compressed else { return .action(.none) }
            text = message.data + frame.payload
        default:
            return .action(.none)
        }
        return UTF8Oracle.verdict(text) == .invalid ? .failure([1007]) : .action(.none)
    }

    private mutating func control(_ frame: WireModel.Frame) -> Expectation {
        if frame.rsv1 { return .failure([1002]) }
        switch frame.opcode {
        case 9:
            return .action(closeSent ? .none : .sendPong(ByteBuffer(bytes: frame.payload)))
        case 10:
            return .action(.pongReceived)
        default:
            let payload = frame.payload
            var status = WebSocketCloseStatus(code: .noStatusReceived)
            if !payload.isEmpty {
                var broken = Set<UInt16>()
                let code = payload.count >= 2 ? UInt16(payload[0]) << 8 | UInt16(payload[1]) : 0
                // RFC 6455's codes, the three IANA added since (1012 service restart, 1013 try again
                // later, 1014 bad gateway), and the registered and private ranges.
                if payload.count == 1 || !((1000...1003).contains(code) || (1007...1014).contains(code) || (3000...4999).contains(code)) {
                    broken.insert(1002)
                }
                let reason = payload.dropFirst(2)
                if UTF8Oracle.verdict(reason) != .complete { broken.insert(1007) }
                if !broken.isEmpty { return .failure(broken) }
                status = WebSocketCloseStatus(code: WebSocketCloseCode(rawValue: code), reason: String(decoding: reason, as: UTF8.self))
            }
            if closeSent {
                closeReceived = true
                return .action(.closeHandshakeComplete(status))
            }
            closeReceived = true
            message = nil
            return .action(.echoClose(status))
        }
    }

    private mutating func data(_ frame: WireModel.Frame) -> Expectation {
        var current: Message
        if frame.opcode == 0 {
            guard let message, !frame.rsv1 else { return .failure([1002]) }
            current = message
        } else {
            guard message == nil, !frame.rsv1 || deflate != nil else { return .failure([1002]) }
            current = Message(text: frame.opcode == 1, compressed: frame.rsv1, wireBytes: 0, data: [])
        }
        var broken = Set<UInt16>()
        current.wireBytes += frame.payload.count
        if current.wireBytes > maxMessageSize { broken.insert(1009) }

        if current.compressed {
            let inflater = self.inflater ?? ReferenceInflater()
            self.inflater = inflater
            // Far past every limit under test: a bomb is known to be too big without inflating it all.
            let cap = 4 * maxDecompressedSize + 1024
            var outcome = inflater.inflate(frame.payload, into: &current.data, cap: cap)
            if frame.fin, case .inflated(ended: false) = outcome {
                outcome = inflater.inflate(syncFlushTrailer, into: &current.data, cap: cap)
            }
            if current.data.count > maxDecompressedSize { broken.insert(1009) }
            if outcome == .corrupt { broken.insert(1007) }
        } else {
            current.data += frame.payload
        }
        if current.text {
            let verdict = UTF8Oracle.verdict(current.data)
            if verdict == .invalid || (frame.fin && verdict != .complete) { broken.insert(1007) }
        }
        if !broken.isEmpty { return .failure(broken) }

        guard frame.fin else {
            message = current
            return .action(.none)
        }
        message = nil
        if current.compressed, deflate?.peerNoContextTakeover == true { inflater?.reset() }
        let data = ByteBuffer(bytes: current.data)
        return .action(.deliver(WebSocketMessage(kind: current.text ? .text : .binary, data: data)))
    }
}
