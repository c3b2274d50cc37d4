import FuzzSupport
import NIOCore
@testable import WebSocketCore

// Fuzzes what a connection does with the bytes a peer sends after the handshake: the frame decoder
// and the connection state machine (message assembly, fragmentation, control frames, UTF-8, close
// codes, permessage-deflate), driven as `WebSocketChannelHandler` drives them.
//
// Input: five choice bytes, then the peer's bytes.
//   0  bit 0: we are the client (else the server); bit 1: permessage-deflate was agreed;
//      bit 2: the peer resets its compressor after every message (no context takeover)
//   1  low nibble: the frame size limit, high nibble: the message size limit (indexes into `limits`)
//   2  the decompressed size limit (index into `limits`)
//   3  how the bytes arrive: 0 in one read, n > 0 in reads of 1...n bytes
//   4  0: we never send a close frame; n > 0: we send one before the peer's n-th frame begins to arrive
//
// Checked on every input:
// - each frame, each failure and each action agrees with `WireModel` and `MessageModel`, models of the
//   RFCs written without the product's code: a frame breaking a rule fails with that rule's code, a
//   valid one never fails, every delivered message is exactly the joined (and inflated) fragments, text
//   is valid UTF-8 by the standard library's reading, and no message exceeds its limits; a text frame
//   still arriving fails as soon as its bytes so far cannot be UTF-8, and never otherwise;
// - a decoded frame encoded again by `WebSocketFrameEncoder` decodes to the same frame, and to the very
//   same bytes when the peer used the shortest length form;
// - the bytes arriving in many reads give exactly what they give in one, except that a text frame
//   whose bytes cannot be UTF-8 may fail before it is complete rather than when it is.

let limits = [0, 1, 125, 126, 1024, 65_535, 65_536, 1 << 20]
let allocator = ByteBufferAllocator()

struct Configuration {
    var role: WebSocketRole
    var deflate: NegotiatedDeflate?
    var maxFrameSize: Int
    var maxMessageSize: Int
    var maxDecompressedSize: Int
    var chunkSeed: UInt8
    var closeBeforeFrame: Int?

    init(_ input: inout FuzzInput) {
        let flags = input.byte()
        let sizes = input.byte()
        let decompressed = input.byte()
        chunkSeed = input.byte()
        let close = input.byte()
        role = flags & 1 != 0 ? .client : .server
        deflate =
            flags & 2 == 0
            ? nil
            : NegotiatedDeflate(
                ourNoContextTakeover: true, peerNoContextTakeover: flags & 4 != 0, ourWindowBits: 15, peerWindowBits: 15)
        maxFrameSize = limits[Int(sizes & 0x0F) % limits.count]
        maxMessageSize = limits[Int(sizes >> 4) % limits.count]
        maxDecompressedSize = limits[Int(decompressed) % limits.count]
        closeBeforeFrame = close == 0 ? nil : Int(close) - 1
    }
}

/// What the connection did, in order.
enum Event: Equatable {
    case frame(WebSocketFrame)
    case action(WebSocketConnectionStateMachine.Action)
    case decodeFailure(WebSocketProtocolError)
    /// The connection failed on the first bytes of a frame, before the frame was complete.
    case partialFailure(WebSocketProtocolError)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFrames(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let configuration = Configuration(&input)
    let bytes = Array(input.rest)
    let whole = run(bytes, reads: [bytes.count], configuration)
    if configuration.chunkSeed != 0 {
        let pieces = run(bytes, reads: chunkLengths(total: bytes.count, seed: configuration.chunkSeed), configuration)
        require(pieces == whole || failedEarly(pieces, whole), "reading in pieces gave \(pieces), in one read \(whole)")
    }
    return 0
}

/// Whether `pieces` is `whole` but for a text frame that failed on its first bytes where, read at once, it
/// failed when complete.
func failedEarly(_ pieces: [Event], _ whole: [Event]) -> Bool {
    guard case .partialFailure(let error) = pieces.last, error.closeCode.rawValue == 1007,
        whole.count == pieces.count + 1, whole.starts(with: pieces.dropLast()),
        case .frame = whole[pieces.count - 1], case .action(.fail) = whole[pieces.count]
    else { return false }
    return true
}

/// Feeds `bytes` in reads of the given lengths, as `WebSocketChannelHandler.channelRead` does, checking
/// each step against the models.
func run(_ bytes: [UInt8], reads: [Int], _ configuration: Configuration) -> [Event] {
    let decoder = WebSocketFrameDecoder(
        role: configuration.role, maxFrameSize: configuration.maxFrameSize,
        allowedReservedBits: configuration.deflate == nil ? 0 : 0x40)
    var machine = WebSocketConnectionStateMachine(
        role: configuration.role, maxMessageSize: configuration.maxMessageSize,
        maxDecompressedSize: configuration.maxDecompressedSize, deflate: configuration.deflate)
    defer { machine.connectionClosed() }
    let wire = WireModel(
        server: configuration.role == .server, allowedReservedBits: decoder.allowedReservedBits,
        maxFrameSize: configuration.maxFrameSize)
    var model = MessageModel(
        maxMessageSize: configuration.maxMessageSize, maxDecompressedSize: configuration.maxDecompressedSize,
        deflate: configuration.deflate)

    var events: [Event] = []
    var cumulation = allocator.buffer(capacity: 0)
    var delivered = 0  // bytes handed to the decoder so far
    var consumed = 0  // bytes it has consumed
    var frames = 0
    var closeSent = false
    /// Our close goes out before the peer's frame number `closeBeforeFrame` begins to be processed.
    func sendCloseIfDue() {
        guard frames == configuration.closeBeforeFrame, !closeSent else { return }
        closeSent = true
        _ = machine.sendingClose()
        model.sendingClose()
    }
    for length in reads {
        cumulation.writeBytes(bytes[delivered..<(delivered + length)])
        delivered += length
        while true {
            let reading = wire.read(bytes[consumed..<delivered])
            let before = cumulation.readerIndex
            let frame: WebSocketFrame
            do {
                guard let decoded = try decoder.decode(&cumulation) else {
                    switch reading {
                    case .needMore, .partial: break
                    default: fatalError("decoder wants more bytes; the model reads \(reading)")
                    }
                    require(cumulation.readerIndex == before, "decoder consumed bytes without a frame")
                    break
                }
                frame = decoded
            } catch {
                guard case .broken(let codes) = reading, codes.contains(error.closeCode.rawValue) else {
                    fatalError("decoder failed with \(error); the model reads \(reading)")
                }
                events.append(.decodeFailure(error))
                return events
            }
            guard case .frame(let expected) = reading, expected.matches(frame) else {
                fatalError("decoder read \(frame); the model reads \(reading)")
            }
            require(cumulation.readerIndex - before == expected.wireLength, "decoder consumed the wrong number of bytes")
            consumed += expected.wireLength
            checkReencoding(frame, wire: bytes[(consumed - expected.wireLength)..<consumed], decoder: decoder)
            events.append(.frame(frame))

            sendCloseIfDue()
            frames += 1
            let action = machine.received(frame, allocator: allocator)
            check(action, against: model.expect(expected), configuration)
            events.append(.action(action))
            if case .fail = action { return events }
            if machine.closeState == .closed { return events }
        }
        // The frame still arriving, as the channel handler hands it over: what has come of a text frame
        // is validated now.
        let header = try? decoder.decodeHeader(cumulation)
        let partial: WireModel.Frame?
        if case .partial(let frame) = wire.read(bytes[consumed..<delivered]), !frame.payload.isEmpty {
            partial = frame
        } else {
            partial = nil
        }
        guard let header, cumulation.readableBytes > header.size else {
            require(partial == nil, "the model reads part of a frame's payload; the decoder no header and payload")
            continue
        }
        guard let partial else { fatalError("the decoder reads a header and payload; the model does not") }
        require(
            header.size + header.payloadLength == partial.wireLength && header.size + partial.payload.count == cumulation.readableBytes,
            "the decoder reads a header of \(header.size) bytes for \(header.payloadLength); the model a frame of \(partial.wireLength)")
        sendCloseIfDue()
        let payload = cumulation.getSlice(at: cumulation.readerIndex + header.size, length: cumulation.readableBytes - header.size) ?? ByteBuffer()
        let action = machine.receivedPartialPayload(header, payload: payload)
        check(action, against: model.expectPartial(partial), configuration)
        if case .fail(let error) = action {
            events.append(.partialFailure(error))
            return events
        }
    }
    return events
}

func check(
    _ action: WebSocketConnectionStateMachine.Action, against expectation: MessageModel.Expectation,
    _ configuration: Configuration
) {
    switch (expectation, action) {
    case (.failure(let codes), .fail(let error)):
        require(codes.contains(error.closeCode.rawValue), "failed with \(error); the model expects one of \(codes)")
    case (.failure(let codes), _):
        fatalError("the model expects a failure with one of \(codes); the machine answered \(action)")
    case (.action(let expected), _):
        require(action == expected, "the machine answered \(action); the model expects \(expected)")
    }
    if case .deliver(let message) = action {
        let limit = configuration.deflate == nil ? configuration.maxMessageSize : max(configuration.maxMessageSize, configuration.maxDecompressedSize)
        require(message.data.readableBytes <= limit, "delivered \(message.data.readableBytes) bytes past the limit")
        if message.kind == .text {
            require(UTF8Oracle.verdict(message.data.readableBytesView) == .complete, "delivered text that is not UTF-8")
        }
    }
    if case .sendPong(let payload) = action {
        require(payload.readableBytes <= 125, "a pong of \(payload.readableBytes) bytes")
    }
}

/// Encodes `frame` again and decodes the result: the same frame must come back, and when the peer used
/// the shortest length form, the same bytes.
func checkReencoding(_ frame: WebSocketFrame, wire: ArraySlice<UInt8>, decoder: WebSocketFrameDecoder) {
    var encoded = WebSocketFrameEncoder.encode(
        fin: frame.fin, rsv1: frame.rsv1, opcode: frame.opcode, payload: frame.payload, maskingKey: frame.maskingKey,
        allocator: allocator)
    let length = frame.payload.readableBytes
    if wire.count == WebSocketFrameEncoder.headerSize(payloadLength: length, masked: frame.maskingKey != nil) + length {
        require(sameBytes(encoded.readableBytesView, wire), "re-encoding changed the bytes of \(frame)")
    }
    do {
        let again = try decoder.decode(&encoded)
        require(again == frame, "re-encoded \(frame) decodes as \(String(describing: again))")
        require(encoded.readableBytes == 0, "re-encoded frame left \(encoded.readableBytes) bytes over")
    } catch {
        fatalError("re-encoded \(frame) fails to decode: \(error)")
    }
}
