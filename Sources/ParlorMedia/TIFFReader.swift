/// Reads the directories of a TIFF structure (an EXIF block), checking every offset it follows.
struct TIFFReader {
    /// One directory entry: its type, count and where its value is (inline entries point into the entry).
    struct Entry {
        let type: UInt16
        let count: Int
        let valueOffset: Int
    }

    private let bytes: [UInt8]
    private let bigEndian: Bool
    let firstDirectoryOffset: Int
    /// Directories already read: an offset met twice is a loop.
    private var visited: Set<Int> = []

    init(_ bytes: [UInt8]) throws(MediaError) {
        guard bytes.count >= 8 else { throw MediaError(.malformed, "the EXIF block is too short for a TIFF header") }
        switch (bytes[0], bytes[1]) {
        case (0x49, 0x49): bigEndian = false
        case (0x4D, 0x4D): bigEndian = true
        default: throw MediaError(.malformed, "the EXIF block has no TIFF byte-order mark")
        }
        self.bytes = bytes
        guard Self.read16(bytes, at: 2, bigEndian: bigEndian) == 42 else {
            throw MediaError(.malformed, "the EXIF block's TIFF header is not 42")
        }
        firstDirectoryOffset = Int(Self.read32(bytes, at: 4, bigEndian: bigEndian))
    }

    /// The entries of the directory at `offset`, by tag.
    mutating func directory(at offset: Int) throws(MediaError) -> [UInt16: Entry] {
        guard offset >= 8, offset + 2 <= bytes.count else { throw MediaError(.malformed, "an EXIF directory offset is out of range") }
        guard visited.insert(offset).inserted else { throw MediaError(.malformed, "EXIF directories point to each other in a loop") }
        let count = Int(Self.read16(bytes, at: offset, bigEndian: bigEndian))
        guard count <= EXIFMetadata.maxEntries, offset + 2 + count * 12 <= bytes.count else {
            throw MediaError(.malformed, "an EXIF directory runs past the end of the block")
        }
        var entries: [UInt16: Entry] = [:]
        for index in 0..<count {
            let at = offset + 2 + index * 12
            let tag = Self.read16(bytes, at: at, bigEndian: bigEndian)
            let type = Self.read16(bytes, at: at + 2, bigEndian: bigEndian)
            let count = Int(Self.read32(bytes, at: at + 4, bigEndian: bigEndian))
            guard let size = Self.size(of: type) else { continue }  // unknown types are skipped, as TIFF says
            let (total, overflow) = size.multipliedReportingOverflow(by: count)
            guard !overflow else { continue }
            let valueOffset = total <= 4 ? at + 8 : Int(Self.read32(bytes, at: at + 8, bigEndian: bigEndian))
            guard valueOffset >= 0, valueOffset <= bytes.count, total <= bytes.count - valueOffset else { continue }
            if entries[tag] == nil { entries[tag] = Entry(type: type, count: count, valueOffset: valueOffset) }
        }
        return entries
    }

    /// A SHORT or LONG value (the first, if there are several).
    func integer(_ entry: Entry) -> Int? {
        guard entry.count >= 1 else { return nil }
        switch entry.type {
        case 3: return Int(Self.read16(bytes, at: entry.valueOffset, bigEndian: bigEndian))
        case 4: return Int(Self.read32(bytes, at: entry.valueOffset, bigEndian: bigEndian))
        default: return nil
        }
    }

    /// An ASCII value, up to its terminating NUL; nil unless it is printable ASCII.
    func ascii(_ entry: Entry) -> String? {
        guard entry.type == 2 || entry.type == 7, entry.count >= 1 else { return nil }
        var text = bytes[entry.valueOffset..<(entry.valueOffset + entry.count)]
        if let end = text.firstIndex(of: 0) { text = text[..<end] }
        guard text.allSatisfy({ (0x20...0x7E).contains($0) }) else { return nil }
        return String(decoding: text, as: UTF8.self)
    }

    /// RATIONAL values as numbers; nil if any has a zero denominator.
    func rationals(_ entry: Entry) -> [Double]? {
        guard entry.type == 5, (1...16).contains(entry.count) else { return nil }
        var values: [Double] = []
        for index in 0..<entry.count {
            let at = entry.valueOffset + index * 8
            let numerator = Self.read32(bytes, at: at, bigEndian: bigEndian)
            let denominator = Self.read32(bytes, at: at + 4, bigEndian: bigEndian)
            guard denominator != 0 else { return nil }
            values.append(Double(numerator) / Double(denominator))
        }
        return values
    }

    /// Bytes per value of a TIFF field type; nil for types Parlor does not read.
    private static func size(of type: UInt16) -> Int? {
        switch type {
        case 1, 2, 6, 7: 1  // BYTE, ASCII, SBYTE, UNDEFINED
        case 3, 8: 2  // SHORT, SSHORT
        case 4, 9, 11: 4  // LONG, SLONG, FLOAT
        case 5, 10, 12: 8  // RATIONAL, SRATIONAL, DOUBLE
        default: nil
        }
    }

    // Callers have checked `at + 2` / `at + 4` against the size.
    private static func read16(_ bytes: [UInt8], at: Int, bigEndian: Bool) -> UInt16 {
        let (a, b) = (UInt16(bytes[at]), UInt16(bytes[at + 1]))
        return bigEndian ? a << 8 | b : b << 8 | a
    }

    private static func read32(_ bytes: [UInt8], at: Int, bigEndian: Bool) -> UInt32 {
        let (a, b, c, d) = (UInt32(bytes[at]), UInt32(bytes[at + 1]), UInt32(bytes[at + 2]), UInt32(bytes[at + 3]))
        return bigEndian ? a << 24 | b << 16 | c << 8 | d : d << 24 | c << 16 | b << 8 | a
    }
}
