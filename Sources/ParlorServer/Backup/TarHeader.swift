/// One entry's 512-byte header in a POSIX ustar archive (IEEE 1003.1-1988), the container of a backup:
/// `tar -tvf` lists it and `tar -xf` unpacks it without Parlor, and it can be written front to back as a
/// stream (sizes before contents, no index at the end), which `GET /admin/backup` needs.
///
/// Only what a backup holds: regular files and the folders implied by their paths. Names longer than
/// ustar's 100 bytes are split into its 155-byte prefix; sizes past ustar's 8 GiB octal field are
/// written in the base-256 form GNU tar and libarchive read.
struct TarHeader: Equatable {
    static let blockSize = 512
    /// ustar's field for a name, and for the prefix a longer name is split into.
    static let nameBytes = 100
    static let prefixBytes = 155

    var name: String
    var size: Int64
    /// Seconds since 1970.
    var modified: Int64

    // Offsets and lengths of the fields a backup uses (POSIX `tar` header, ustar format).
    private enum Field {
        static let name = (offset: 0, length: 100)
        static let mode = (offset: 100, length: 8)
        static let uid = (offset: 108, length: 8)
        static let gid = (offset: 116, length: 8)
        static let size = (offset: 124, length: 12)
        static let modified = (offset: 136, length: 12)
        static let checksum = (offset: 148, length: 8)
        static let type = 156
        static let magic = (offset: 257, length: 8)
        static let prefix = (offset: 345, length: 155)
    }

    private static let ustarMagic = Array("ustar\u{0}00".utf8)
    private static let regularFile = UInt8(ascii: "0")
    private static let oldRegularFile: UInt8 = 0

    /// The header's 512 bytes; nil when the name cannot be written in ustar (over 255 bytes, or with
    /// no `/` where a name over 100 bytes could be split).
    func encoded() -> [UInt8]? {
        guard let (prefix, base) = Self.split(name) else { return nil }
        var block = [UInt8](repeating: 0, count: Self.blockSize)
        Self.put(Array(base.utf8), at: Field.name.offset, in: &block)
        Self.put(Array(prefix.utf8), at: Field.prefix.offset, in: &block)
        Self.putOctal(0o644, Field.mode, in: &block)
        Self.putOctal(0, Field.uid, in: &block)
        Self.putOctal(0, Field.gid, in: &block)
        if size < 0o777_7777_7777 {
            Self.putOctal(size, Field.size, in: &block)
        } else {
            // Base-256: the top bit of the first byte set, the size big-endian in the rest.
            block[Field.size.offset] = 0x80
            for index in 0..<8 {
                block[Field.size.offset + Field.size.length - 1 - index] = UInt8(truncatingIfNeeded: size >> (8 * index))
            }
        }
        Self.putOctal(max(0, modified), Field.modified, in: &block)
        block[Field.type] = Self.regularFile
        Self.put(Self.ustarMagic, at: Field.magic.offset, in: &block)
        // The checksum is summed with its own field as spaces, and written as six digits, NUL, space.
        for index in 0..<Field.checksum.length { block[Field.checksum.offset + index] = UInt8(ascii: " ") }
        let sum = block.reduce(0) { $0 + Int64($1) }
        Self.putOctal(sum, (Field.checksum.offset, 7), in: &block)
        return block
    }

    /// What a block holds: a header, the end of the archive (a block of zeros), or something that is
    /// not a ustar header of a regular file (with the reason).
    enum Decoded: Equatable {
        case header(TarHeader)
        case end
        case invalid(String)
    }

    static func decode(_ block: [UInt8]) -> Decoded {
        guard block.count == blockSize else { return .invalid("a header block is \(block.count) bytes, not \(blockSize)") }
        if block.allSatisfy({ $0 == 0 }) { return .end }
        guard Array(block[Field.magic.offset..<Field.magic.offset + 6]) == Array(ustarMagic.prefix(6)) else {
            return .invalid("an entry header is not ustar")
        }
        guard let stored = octal(block, Field.checksum) else { return .invalid("an entry header has no checksum") }
        var sum: Int64 = 0
        for (index, byte) in block.enumerated() {
            let inField = index >= Field.checksum.offset && index < Field.checksum.offset + Field.checksum.length
            sum += Int64(inField ? UInt8(ascii: " ") : byte)
        }
        guard sum == stored else { return .invalid("an entry header's checksum does not match its bytes") }
        guard block[Field.type] == regularFile || block[Field.type] == oldRegularFile else {
            return .invalid("an entry is not a regular file (type \(block[Field.type]))")
        }
        let size: Int64
        if block[Field.size.offset] & 0x80 != 0 {
            var value: Int64 = 0
            for index in 1..<Field.size.length { value = value << 8 | Int64(block[Field.size.offset + index]) }
            size = value
        } else if let value = octal(block, Field.size) {
            size = value
        } else {
            return .invalid("an entry header's size is not a number")
        }
        guard size >= 0 else { return .invalid("an entry header's size is negative") }
        let base = string(block, Field.name)
        let prefix = string(block, Field.prefix)
        return .header(TarHeader(name: prefix.isEmpty ? base : prefix + "/" + base, size: size, modified: octal(block, Field.modified) ?? 0))
    }

    /// The bytes of zeros that pad `size` bytes of contents to whole blocks.
    static func padding(after size: Int64) -> Int {
        let remainder = Int(size % Int64(blockSize))
        return remainder == 0 ? 0 : blockSize - remainder
    }

    // MARK: Fields

    private static func split(_ name: String) -> (prefix: String, base: String)? {
        let bytes = Array(name.utf8)
        if bytes.count <= nameBytes { return ("", name) }
        guard bytes.count <= prefixBytes + 1 + nameBytes else { return nil }
        // The last `/` that leaves a prefix of at most 155 bytes and a name of at most 100.
        for index in stride(from: min(bytes.count - 1, prefixBytes), through: 1, by: -1) where bytes[index] == UInt8(ascii: "/") {
            guard bytes.count - index - 1 <= nameBytes else { return nil }
            return (String(decoding: bytes[..<index], as: UTF8.self), String(decoding: bytes[(index + 1)...], as: UTF8.self))
        }
        return nil
    }

    private static func put(_ bytes: [UInt8], at offset: Int, in block: inout [UInt8]) {
        for (index, byte) in bytes.enumerated() { block[offset + index] = byte }
    }

    /// `value` in octal, zero-padded to the field's length less one, then NUL.
    private static func putOctal(_ value: Int64, _ field: (offset: Int, length: Int), in block: inout [UInt8]) {
        let digits = Array(String(value, radix: 8).utf8)
        let width = field.length - 1
        let padded = [UInt8](repeating: UInt8(ascii: "0"), count: max(0, width - digits.count)) + digits
        put(padded, at: field.offset, in: &block)
        block[field.offset + width] = 0
    }

    private static func octal(_ block: [UInt8], _ field: (offset: Int, length: Int)) -> Int64? {
        var value: Int64 = 0
        var seen = false
        for byte in block[field.offset..<field.offset + field.length] {
            if byte == 0 || byte == UInt8(ascii: " ") {
                if seen { break } else { continue }
            }
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "7") else { return nil }
            let (shifted, overflow) = value.multipliedReportingOverflow(by: 8)
            guard !overflow else { return nil }
            value = shifted + Int64(byte - UInt8(ascii: "0"))
            seen = true
        }
        return seen ? value : nil
    }

    private static func string(_ block: [UInt8], _ field: (offset: Int, length: Int)) -> String {
        let bytes = block[field.offset..<field.offset + field.length]
        return String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
    }
}
