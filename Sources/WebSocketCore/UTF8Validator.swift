/// Validates UTF-8 incrementally (RFC 3629), so a text message can be rejected on the first fragment
/// that breaks it (RFC 6455 §8.1) rather than after the whole message has arrived.
///
/// Rejects overlong forms, surrogates (U+D800–U+DFFF) and code points above U+10FFFF.
public struct UTF8Validator: Sendable {
    /// Continuation bytes still owed by the current sequence.
    private var remaining: UInt8 = 0
    /// The range the next continuation byte must fall in (narrower right after E0, ED, F0 and F4).
    private var lower: UInt8 = 0x80
    private var upper: UInt8 = 0xBF

    public init() {}

    /// Whether the bytes seen so far end on a character boundary.
    public var isComplete: Bool { remaining == 0 }

    /// Feeds more bytes; returns `false` as soon as they cannot be part of valid UTF-8.
    public mutating func consume(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let count = bytes.count
        var index = 0
        while index < count {
            if remaining == 0 {
                // Fast path: skip ASCII a word at a time.
                while index + 8 <= count,
                    (base + index).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 == 0
                {
                    index += 8
                }
                guard index < count else { break }
                let byte = base.load(fromByteOffset: index, as: UInt8.self)
                index += 1
                guard start(byte) else { return false }
            } else {
                let byte = base.load(fromByteOffset: index, as: UInt8.self)
                index += 1
                guard byte >= lower && byte <= upper else { return false }
                remaining -= 1
                lower = 0x80
                upper = 0xBF
            }
        }
        return true
    }

    public mutating func consume<Bytes: Collection>(_ bytes: Bytes) -> Bool where Bytes.Element == UInt8 {
        if let result = bytes.withContiguousStorageIfAvailable({ consume(UnsafeRawBufferPointer($0)) }) {
            return result
        }
        return Array(bytes).withUnsafeBytes { consume($0) }
    }

    /// Handles the first byte of a sequence.
    private mutating func start(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x00...0x7F: return true
        case 0xC2...0xDF: expect(1, 0x80, 0xBF)
        case 0xE0: expect(2, 0xA0, 0xBF)  // no overlong 3-byte forms
        case 0xE1...0xEC, 0xEE...0xEF: expect(2, 0x80, 0xBF)
        case 0xED: expect(2, 0x80, 0x9F)  // no surrogates
        case 0xF0: expect(3, 0x90, 0xBF)  // no overlong 4-byte forms
        case 0xF1...0xF3: expect(3, 0x80, 0xBF)
        case 0xF4: expect(3, 0x80, 0x8F)  // nothing above U+10FFFF
        default: return false  // 0x80–0xC1 (stray continuation or overlong lead) and 0xF5–0xFF
        }
        return true
    }

    private mutating func expect(_ count: UInt8, _ lower: UInt8, _ upper: UInt8) {
        remaining = count
        self.lower = lower
        self.upper = upper
    }
}
