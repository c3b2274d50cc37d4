import NIOCore

/// The protocol logic of an open connection, without any I/O: given a decoded frame, it says what to do
/// (deliver a message, answer a ping, echo a close, fail with a code). Message assembly, RSV1 placement,
/// decompression with its size guard, incremental UTF-8 validation and the close handshake live here.
struct WebSocketConnectionStateMachine {
    enum CloseState: Equatable {
        case open
        /// We sent a close frame and wait for the peer's.
        case closeSent
        /// The peer sent a close frame and we answered it.
        case closeReceived
        case closed
    }

    enum Action: Equatable {
        case none
        case deliver(WebSocketMessage)
        case sendPong(ByteBuffer)
        case pongReceived
        /// The peer started the close handshake: answer with this status, then close.
        case echoClose(WebSocketCloseStatus)
        /// The peer answered our close: the handshake is complete.
        case closeHandshakeComplete(WebSocketCloseStatus)
        /// The peer broke the protocol: send a close frame with this code, then close.
        case fail(WebSocketProtocolError)
    }

    private struct Assembly {
        var kind: WebSocketMessage.Kind
        var compressed: Bool
        var buffer: ByteBuffer
        /// Bytes received on the wire for this message (before inflation).
        var wireBytes: Int
        var validator: UTF8Validator?
    }

    let role: WebSocketRole
    let maxMessageSize: Int
    let maxDecompressedSize: Int
    let deflate: NegotiatedDeflate?
    private(set) var closeState: CloseState = .open
    private var assembly: Assembly?
    private var inflaterLease: InflaterLease?
    /// How far the text frame still arriving has been validated (see `receivedPartialPayload`).
    private var partial: (validator: UTF8Validator, validated: Int)?

    init(role: WebSocketRole, maxMessageSize: Int, maxDecompressedSize: Int, deflate: NegotiatedDeflate?) {
        self.role = role
        self.maxMessageSize = maxMessageSize
        self.maxDecompressedSize = maxDecompressedSize
        self.deflate = deflate
    }

    /// Whether frames from the peer still matter (not after a close frame went either way).
    var isOpen: Bool { closeState == .open }

    /// Records that we are sending a close frame. Returns false if one was already sent or answered.
    mutating func sendingClose() -> Bool {
        switch closeState {
        case .open:
            closeState = .closeSent
            return true
        case .closeSent, .closeReceived, .closed:
            return false
        }
    }

    mutating func connectionClosed() {
        closeState = .closed
        assembly = nil
        inflaterLease = nil
        partial = nil
    }

    mutating func received(_ frame: WebSocketFrame, allocator: ByteBufferAllocator) -> Action {
        partial = nil
        switch closeState {
        case .closeReceived, .closed:
            return .none
        case .open, .closeSent:
            break
        }
        if frame.opcode.isControl {
            return receivedControl(frame)
        }
        // After sending a close frame, data from the peer is discarded (RFC 6455 §5.5.1).
        if closeState == .closeSent { return .none }
        return receivedData(frame, allocator: allocator)
    }

    /// The first `payload.readableBytes` bytes (still masked with `header`'s key) of a frame whose rest
    /// has not arrived. A text frame is validated as its bytes come, so a message that cannot be UTF-8
    /// fails the moment the bad byte arrives (RFC 6455 §8.1; Autobahn 6.4.3–6.4.4), not when a slow
    /// peer finally completes the frame. The whole frame is still checked when it is complete.
    mutating func receivedPartialPayload(_ header: WebSocketFrameDecoder.Header, payload: ByteBuffer) -> Action {
        guard closeState == .open, !header.rsv1 else { return .none }
        let start: UTF8Validator
        switch header.opcode {
        case .text where assembly == nil:
            start = UTF8Validator()
        case .continuation:
            guard let assembly, !assembly.compressed, let validator = assembly.validator else { return .none }
            start = validator
        default:
            return .none
        }
        var (validator, validated) = partial ?? (start, 0)
        let fresh = payload.readableBytes - validated
        guard fresh > 0 else { return .none }
        var bytes = Array(payload.readableBytesView.dropFirst(validated))
        let valid = bytes.withUnsafeMutableBytes { raw in
            header.maskingKey?.apply(to: raw, offset: validated)
            return validator.consume(UnsafeRawBufferPointer(raw))
        }
        guard valid else { return .fail(WebSocketProtocolError(.invalidPayloadData, "Text message is not valid UTF-8")) }
        partial = (validator, validated + fresh)
        return .none
    }

    // MARK: Control frames

    private mutating func receivedControl(_ frame: WebSocketFrame) -> Action {
        if frame.rsv1 { return .fail(WebSocketProtocolError(.protocolError, "RSV1 set on a control frame")) }
        switch frame.opcode {
        case .ping:
            return closeState == .open ? .sendPong(frame.payload) : .none
        case .pong:
            return .pongReceived
        case .close:
            let status: WebSocketCloseStatus
            switch Self.parseClosePayload(frame.payload) {
            case .success(let parsed): status = parsed
            case .failure(let error): return .fail(error)
            }
            if closeState == .closeSent {
                closeState = .closed
                return .closeHandshakeComplete(status)
            }
            closeState = .closeReceived
            assembly = nil
            return .echoClose(status)
        default:
            return .fail(WebSocketProtocolError(.protocolError, "Unknown control opcode \(frame.opcode)"))
        }
    }

    /// A close payload is empty, or a valid code followed by a UTF-8 reason (§5.5.1, §7.4).
    static func parseClosePayload(_ payload: ByteBuffer) -> Result<WebSocketCloseStatus, WebSocketProtocolError> {
        var payload = payload
        guard payload.readableBytes > 0 else { return .success(WebSocketCloseStatus(code: .noStatusReceived)) }
        guard let raw = payload.readInteger(endianness: .big, as: UInt16.self) else {
            return .failure(WebSocketProtocolError(.protocolError, "Close frame with a 1-byte payload"))
        }
        let code = WebSocketCloseCode(rawValue: raw)
        guard code.isValidOnWire else {
            return .failure(WebSocketProtocolError(.protocolError, "Invalid close code \(raw)"))
        }
        var validator = UTF8Validator()
        let valid = payload.withUnsafeReadableBytes { validator.consume($0) } && validator.isComplete
        guard valid else {
            return .failure(WebSocketProtocolError(.invalidPayloadData, "Close reason is not valid UTF-8"))
        }
        return .success(WebSocketCloseStatus(code: code, reason: String(buffer: payload)))
    }

    // MARK: Data frames

    private mutating func receivedData(_ frame: WebSocketFrame, allocator: ByteBufferAllocator) -> Action {
        var payload = frame.payload
        if frame.opcode == .continuation {
            guard assembly != nil else {
                return .fail(WebSocketProtocolError(.protocolError, "Continuation frame without a message to continue"))
            }
            if frame.rsv1 {
                return .fail(WebSocketProtocolError(.protocolError, "RSV1 set on a continuation frame"))
            }
        } else {
            guard assembly == nil else {
                return .fail(WebSocketProtocolError(.protocolError, "New data frame inside a fragmented message"))
            }
            if frame.rsv1 && deflate == nil {
                return .fail(WebSocketProtocolError(.protocolError, "RSV1 set but no compression was negotiated"))
            }
            let kind: WebSocketMessage.Kind = frame.opcode == .text ? .text : .binary
            // The common case, one uncompressed frame: deliver the payload without copying it.
            if frame.fin && !frame.rsv1 {
                guard payload.readableBytes <= maxMessageSize else { return tooBig(payload.readableBytes) }
                if kind == .text {
                    var validator = UTF8Validator()
                    let valid = payload.withUnsafeReadableBytes { validator.consume($0) } && validator.isComplete
                    guard valid else {
                        return .fail(WebSocketProtocolError(.invalidPayloadData, "Text message is not valid UTF-8"))
                    }
                }
                return .deliver(WebSocketMessage(kind: kind, data: payload))
            }
            assembly = Assembly(
                kind: kind, compressed: frame.rsv1,
                buffer: allocator.buffer(capacity: frame.rsv1 ? max(256, payload.readableBytes * 2) : payload.readableBytes),
                wireBytes: 0, validator: kind == .text ? UTF8Validator() : nil)
        }

        // Safe: set above or checked at the top for continuations.
        var message = assembly!
        assembly = nil  // keeps `message.buffer` uniquely referenced while we append
        message.wireBytes += payload.readableBytes
        guard message.wireBytes <= maxMessageSize else { return tooBig(message.wireBytes) }

        let appendedFrom = message.buffer.writerIndex
        if message.compressed {
            let inflater: ZlibInflater
            do {
                inflater = try leaseInflater()
            } catch {
                return .fail(WebSocketProtocolError(.internalError, "Could not start decompression"))
            }
            do {
                try inflater.inflate(payload, into: &message.buffer, limit: maxDecompressedSize)
                if frame.fin { try inflater.finishMessage(into: &message.buffer, limit: maxDecompressedSize) }
            } catch {
                switch error {
                case .tooBig(let limit):
                    return .fail(WebSocketProtocolError(.messageTooBig, "Message inflates past the limit of \(limit) bytes"))
                case .corrupt(let why):
                    return .fail(WebSocketProtocolError(.invalidPayloadData, "Invalid compressed data: \(why)"))
                }
            }
        } else {
            message.buffer.writeBuffer(&payload)
        }

        if var validator = message.validator {
            let fresh = message.buffer.writerIndex - appendedFrom
            let offset = appendedFrom - message.buffer.readerIndex
            let valid = message.buffer.withUnsafeReadableBytes { bytes in
                validator.consume(UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + fresh)]))
            }
            // Fail fast: the first fragment that cannot be UTF-8 ends the connection (§8.1).
            guard valid, !frame.fin || validator.isComplete else {
                return .fail(WebSocketProtocolError(.invalidPayloadData, "Text message is not valid UTF-8"))
            }
            message.validator = validator
        }

        guard frame.fin else {
            assembly = message
            return .none
        }
        if message.compressed { finishedCompressedMessage() }
        return .deliver(WebSocketMessage(kind: message.kind, data: message.buffer))
    }

    private func tooBig(_ size: Int) -> Action {
        .fail(WebSocketProtocolError(.messageTooBig, "Message of \(size) bytes exceeds the limit of \(maxMessageSize)"))
    }

    // MARK: Inflater lifetime

    private mutating func leaseInflater() throws(WebSocketCompressionError) -> ZlibInflater {
        if let inflaterLease { return inflaterLease.inflater }
        // Safe: only compressed messages get here, and RSV1 is refused unless deflate was negotiated.
        let lease = try InflaterLease()
        inflaterLease = lease
        return lease.inflater
    }

    private mutating func finishedCompressedMessage() {
        guard let deflate, deflate.peerNoContextTakeover else { return }
        // The peer starts every message afresh, so nothing needs keeping between messages: hand the
        // inflater back to this thread's pool rather than holding its 32 KiB window while idle.
        inflaterLease = nil
    }
}
