import FuzzSupport
import WebSocketCore

/// RFC 6455 §5.2 read straight off the bytes, byte by byte, as a second opinion on
/// `WebSocketFrameDecoder`: which rules the bytes seen so far already break, or the frame they hold.
struct WireModel {
    struct Frame: Equatable {
        var fin: Bool
        var rsv1: Bool
        var rsv2: Bool
        var rsv3: Bool
        var opcode: UInt8
        var maskingKey: [UInt8]?
        /// Unmasked.
        var payload: [UInt8]
        /// Header and payload bytes on the wire.
        var wireLength: Int
    }

    enum Reading: Equatable {
        /// Nothing wrong yet; the frame's header is not complete.
        case needMore
        /// Nothing wrong yet; the header is complete and `payload` holds what has come of the payload
        /// (unmasked), not all of it.
        case partial(Frame)
        /// The close codes of every rule the bytes seen so far break (never empty).
        case broken(Set<UInt16>)
        case frame(Frame)
    }

    let server: Bool
    let allowedReservedBits: UInt8
    let maxFrameSize: Int

    func read(_ bytes: ArraySlice<UInt8>) -> Reading {
        let b = Array(bytes)
        guard b.count >= 2 else { return .needMore }
        var broken = Set<UInt16>()
        let fin = b[0] & 0x80 != 0
        let reserved = b[0] & 0x70
        let opcode = b[0] & 0x0F
        let control = opcode >= 8
        if reserved & ~allowedReservedBits != 0 { broken.insert(1002) }
        if ![0, 1, 2, 8, 9, 10].contains(opcode) { broken.insert(1002) }
        let masked = b[1] & 0x80 != 0
        if masked != server { broken.insert(1002) }
        let shortLength = Int(b[1] & 0x7F)
        if control && (!fin || shortLength > 125) { broken.insert(1002) }
        if !broken.isEmpty { return .broken(broken) }

        var offset = 2
        var length = UInt64(shortLength)
        if shortLength >= 126 {
            let size = shortLength == 126 ? 2 : 8
            guard b.count >= offset + size else { return .needMore }
            length = b[offset..<(offset + size)].reduce(0) { $0 << 8 | UInt64($1) }
            offset += size
            if length >> 63 != 0 { broken.insert(1002) }
        }
        if length > UInt64(maxFrameSize) { broken.insert(1009) }
        if !broken.isEmpty { return .broken(broken) }

        var key: [UInt8]?
        if masked {
            guard b.count >= offset + 4 else { return .needMore }
            key = Array(b[offset..<(offset + 4)])
            offset += 4
        }
        let count = Int(length)
        let arrived = min(count, b.count - offset)
        var payload = Array(b[offset..<(offset + arrived)])
        if let key {
            for i in payload.indices { payload[i] ^= key[i % 4] }
        }
        let frame = Frame(
            fin: fin, rsv1: b[0] & 0x40 != 0, rsv2: b[0] & 0x20 != 0, rsv3: b[0] & 0x10 != 0, opcode: opcode,
            maskingKey: key, payload: payload, wireLength: offset + count)
        return arrived == count ? .frame(frame) : .partial(frame)
    }
}

extension WireModel.Frame {
    /// Whether the product's decoded frame is this one.
    func matches(_ frame: WebSocketFrame) -> Bool {
        fin == frame.fin && rsv1 == frame.rsv1 && rsv2 == frame.rsv2 && rsv3 == frame.rsv3
            && opcode == frame.opcode.rawValue && maskingKey == frame.maskingKey?.bytes
            && sameBytes(payload, frame.payload.readableBytesView)
    }
}
