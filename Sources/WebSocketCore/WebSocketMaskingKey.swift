import NIOCore

/// The 32-bit masking key of a client frame (RFC 6455 §5.3).
public struct WebSocketMaskingKey: Hashable, Sendable {
    /// The key's four bytes in wire order, packed little-endian so byte 0 is the lowest byte.
    public let packed: UInt32

    public init(_ bytes: (UInt8, UInt8, UInt8, UInt8)) {
        packed = UInt32(bytes.0) | UInt32(bytes.1) << 8 | UInt32(bytes.2) << 16 | UInt32(bytes.3) << 24
    }

    /// Builds a key whose wire bytes are the little-endian bytes of `packed`.
    public init(packed: UInt32) { self.packed = packed }

    public var bytes: [UInt8] {
        [UInt8(truncatingIfNeeded: packed), UInt8(truncatingIfNeeded: packed >> 8),
         UInt8(truncatingIfNeeded: packed >> 16), UInt8(truncatingIfNeeded: packed >> 24)]
    }

    /// XORs `bytes` with the key in place, as if the first byte of `bytes` sat at `offset` within the
    /// frame's payload. Works a machine word at a time; only the unaligned head and tail go byte by byte.
    public func apply(to bytes: UnsafeMutableRawBufferPointer, offset: Int = 0) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        let count = bytes.count
        #if _endian(big)
        let keyBytes = self.bytes
        for i in 0..<count { bytes[i] ^= keyBytes[(offset + i) & 3] }
        return
        #endif
        // Rotate the key so that it lines up with byte 0 of this buffer.
        let shift = UInt32((offset & 3) * 8)
        let key32 = shift == 0 ? packed : (packed >> shift) | (packed << (32 - shift))
        let key64 = UInt64(key32) | UInt64(key32) << 32
        var index = 0
        // Work in 8-byte words. Loads and stores are unaligned-safe; the key rotation keeps the phase right.
        while index + 32 <= count {
            let p = base + index
            p.storeBytes(of: p.loadUnaligned(as: UInt64.self) ^ key64, as: UInt64.self)
            (p + 8).storeBytes(of: (p + 8).loadUnaligned(as: UInt64.self) ^ key64, as: UInt64.self)
            (p + 16).storeBytes(of: (p + 16).loadUnaligned(as: UInt64.self) ^ key64, as: UInt64.self)
            (p + 24).storeBytes(of: (p + 24).loadUnaligned(as: UInt64.self) ^ key64, as: UInt64.self)
            index += 32
        }
        while index + 8 <= count {
            let p = base + index
            p.storeBytes(of: p.loadUnaligned(as: UInt64.self) ^ key64, as: UInt64.self)
            index += 8
        }
        var tailKey = key64
        while index < count {
            let p = base + index
            p.storeBytes(of: p.load(as: UInt8.self) ^ UInt8(truncatingIfNeeded: tailKey), as: UInt8.self)
            tailKey >>= 8
            index += 1
        }
    }

    /// Masks (or unmasks: the operation is its own inverse) the readable bytes of `buffer` in place.
    public func apply(to buffer: inout ByteBuffer, offset: Int = 0) {
        buffer.withUnsafeMutableReadableBytes { apply(to: $0, offset: offset) }
    }
}
