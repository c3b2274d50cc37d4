@testable import ParlorMedia

/// Builds small JPEG files and EXIF blocks byte by byte, so each test says exactly what a file holds.
struct TIFFBuilder {
    enum Value {
        case short(UInt16)
        case long(UInt32)
        case ascii(String)
        case rationals([(UInt32, UInt32)])
        /// A LONG that will hold the offset of the directory at this index.
        case directory(Int)
    }

    var bigEndian: Bool
    /// Directories in order; the first is IFD0.
    var directories: [[(tag: UInt16, value: Value)]]

    func build() -> [UInt8] {
        // Lay out: header, then each directory followed by its out-of-line values.
        var offsets: [Int] = []
        var position = 8
        for directory in directories {
            offsets.append(position)
            position += 2 + directory.count * 12 + 4
            for (_, value) in directory where size(of: value) > 4 { position += size(of: value) }
        }
        var out: [UInt8] = bigEndian ? [0x4D, 0x4D] : [0x49, 0x49]
        out += u16(42) + u32(8)
        for (index, directory) in directories.enumerated() {
            var extra = offsets[index] + 2 + directory.count * 12 + 4
            var tail: [UInt8] = []
            out += u16(UInt16(directory.count))
            for (tag, value) in directory {
                let (type, count, payload) = encode(value, offsets: offsets)
                out += u16(tag) + u16(type) + u32(UInt32(count))
                if payload.count <= 4 {
                    out += payload + Array(repeating: 0, count: 4 - payload.count)
                } else {
                    out += u32(UInt32(extra))
                    tail += payload
                    extra += payload.count
                }
            }
            out += u32(0) + tail
        }
        return out
    }

    private func size(of value: Value) -> Int { encode(value, offsets: []).2.count }

    private func encode(_ value: Value, offsets: [Int]) -> (UInt16, Int, [UInt8]) {
        switch value {
        case .short(let v): return (3, 1, u16(v))
        case .long(let v): return (4, 1, u32(v))
        case .ascii(let text): let bytes = Array(text.utf8) + [0]; return (2, bytes.count, bytes)
        case .rationals(let parts): return (5, parts.count, parts.flatMap { u32($0.0) + u32($0.1) })
        case .directory(let index): return (4, 1, u32(UInt32(index < offsets.count ? offsets[index] : 0)))
        }
    }

    private func u16(_ v: UInt16) -> [UInt8] { bigEndian ? [UInt8(v >> 8), UInt8(v & 0xFF)] : [UInt8(v & 0xFF), UInt8(v >> 8)] }
    private func u32(_ v: UInt32) -> [UInt8] {
        let bytes = [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)]
        return bigEndian ? bytes : bytes.reversed()
    }

    /// A photo's EXIF: orientation, when it was taken, where.
    static func photo(
        bigEndian: Bool = false, orientation: UInt16? = 6, taken: String? = "2024:07:14 18:30:05", offset: String? = "+02:00",
        latitude: (String, [(UInt32, UInt32)])? = ("N", [(48, 1), (51, 1), (2424, 100)]),
        longitude: (String, [(UInt32, UInt32)])? = ("E", [(2, 1), (17, 1), (4008, 100)])
    ) -> [UInt8] {
        var first: [(UInt16, Value)] = []
        if let orientation { first.append((0x0112, .short(orientation))) }
        first.append((0x8769, .directory(1)))
        first.append((0x8825, .directory(2)))
        var exif: [(UInt16, Value)] = []
        if let taken { exif.append((0x9003, .ascii(taken))) }
        if let offset { exif.append((0x9011, .ascii(offset))) }
        var gps: [(UInt16, Value)] = []
        if let latitude { gps += [(0x0001, .ascii(latitude.0)), (0x0002, .rationals(latitude.1))] }
        if let longitude { gps += [(0x0003, .ascii(longitude.0)), (0x0004, .rationals(longitude.1))] }
        return TIFFBuilder(bigEndian: bigEndian, directories: [first, exif, gps]).build()
    }
}

enum JPEGBuilder {
    static func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
        let length = payload.count + 2
        return [0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
    }

    static let jfif = segment(0xE0, Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0])
    static let icc = segment(0xE2, Array("ICC_PROFILE".utf8) + [0, 1, 1] + Array(repeating: 7, count: 20))
    static let xmp = segment(0xE1, Array("http://ns.adobe.com/xap/1.0/".utf8) + [0] + Array("<x:xmpmeta GPS=\"48.85\"/>".utf8))
    static let iptc = segment(0xED, Array("Photoshop 3.0".utf8) + [0, 1, 2, 3])
    static let comment = segment(0xFE, Array("shot at Ann's flat".utf8))
    static let quantization = segment(0xDB, [0] + Array(repeating: 1, count: 64))
    static let frame = segment(0xC0, [8, 0, 16, 0, 16, 1, 1, 0x11, 0])
    /// A scan header, then entropy-coded bytes with a stuffed 0xFF00 and a restart marker inside.
    static let scan = segment(0xDA, [1, 1, 0, 0, 63, 0]) + [0x12, 0xFF, 0x00, 0x34, 0xFF, 0xD0, 0x56, 0x78]

    static func exif(_ tiff: [UInt8]) -> [UInt8] { segment(0xE1, JPEGFile.exifSignature + tiff) }

    static func file(_ segments: [[UInt8]], end: Bool = true) -> [UInt8] {
        [0xFF, 0xD8] + segments.flatMap { $0 } + (end ? [0xFF, 0xD9] : [])
    }
}
