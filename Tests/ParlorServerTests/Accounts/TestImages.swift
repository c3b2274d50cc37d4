/// Small image files built byte by byte: enough structure for the server's checks (it reads segments
/// and chunks, never pixels), with metadata that must not survive an upload.
enum TestImages {
    static func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
        let length = payload.count + 2
        return [0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
    }

    /// A JPEG of `width` × `height` whose EXIF block holds `secret`.
    static func jpeg(width: Int = 16, height: Int = 16, secret: String = "GPS 51.5074 N -0.1278 W") -> [UInt8] {
        [0xFF, 0xD8]
            + segment(0xE0, Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0])
            + segment(0xE1, Array("Exif".utf8) + [0, 0] + Array(secret.utf8))
            + segment(0xDB, [0] + Array(repeating: 1, count: 64))
            + segment(0xC0, [8, UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF), 1, 1, 0x11, 0])
            + segment(0xDA, [1, 1, 0, 0, 63, 0]) + [0x12, 0x34, 0x56] + [0xFF, 0xD9]
    }

    /// What the server keeps of `jpeg(…)`: everything but the EXIF block.
    static func strippedJPEG(width: Int = 16, height: Int = 16) -> [UInt8] {
        [0xFF, 0xD8]
            + segment(0xE0, Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0])
            + segment(0xDB, [0] + Array(repeating: 1, count: 64))
            + segment(0xC0, [8, UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF), 1, 1, 0x11, 0])
            + segment(0xDA, [1, 1, 0, 0, 63, 0]) + [0x12, 0x34, 0x56] + [0xFF, 0xD9]
    }

    /// The EXIF block a phone writes, cut to two tags: a big-endian TIFF whose first directory holds the
    /// orientation (6: turned a quarter) and a pointer (tag 0x8825) to a GPS directory with the latitude
    /// 51° 30′ 26.64″ N.
    static let phoneEXIF: [UInt8] = Array("Exif".utf8) + [0, 0] + [
        0x4D, 0x4D, 0x00, 0x2A, 0x00, 0x00, 0x00, 0x08,  // TIFF header, first directory at 8
        0x00, 0x02,  // two entries
        0x01, 0x12, 0x00, 0x03, 0x00, 0x00, 0x00, 0x01, 0x00, 0x06, 0x00, 0x00,  // Orientation, SHORT: 6
        0x88, 0x25, 0x00, 0x04, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x26,  // GPSInfo, LONG: directory at 38
        0x00, 0x00, 0x00, 0x00,  // no next directory
        0x00, 0x02,  // the GPS directory: two entries
        0x00, 0x01, 0x00, 0x02, 0x00, 0x00, 0x00, 0x02, 0x4E, 0x00, 0x00, 0x00,  // GPSLatitudeRef, ASCII: "N"
        0x00, 0x02, 0x00, 0x05, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00, 0x44,  // GPSLatitude, 3 RATIONAL at 68
        0x00, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x33, 0x00, 0x00, 0x00, 0x01,  // 51/1
        0x00, 0x00, 0x00, 0x1E, 0x00, 0x00, 0x00, 0x01,  // 30/1
        0x00, 0x00, 0x0A, 0x68, 0x00, 0x00, 0x00, 0x64,  // 2664/100
    ]

    /// A phone photo: `jpeg()`'s structure with `phoneEXIF` as its EXIF block.
    static let phonePhoto: [UInt8] = [0xFF, 0xD8]
        + segment(0xE0, Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0])
        + segment(0xE1, phoneEXIF)
        + Array(strippedJPEG().dropFirst(2 + 18))

    /// What the server keeps of `phonePhoto`: its EXIF block replaced by one holding only the
    /// orientation, right after the JFIF header.
    static let strippedPhonePhoto: [UInt8] = [0xFF, 0xD8]
        + segment(0xE0, Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0])
        + segment(0xE1, Array("Exif".utf8) + [0, 0] + [
            0x4D, 0x4D, 0x00, 0x2A, 0x00, 0x00, 0x00, 0x08, 0x00, 0x01,
            0x01, 0x12, 0x00, 0x03, 0x00, 0x00, 0x00, 0x01, 0x00, 0x06, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        ])
        + Array(strippedJPEG().dropFirst(2 + 18))

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let length = UInt32(data.count)
        return [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)]
            + Array(type.utf8) + data + [0, 0, 0, 0]
    }

    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    static let pngHeader = chunk("IHDR", [0, 0, 0, 8, 0, 0, 0, 8, 8, 6, 0, 0, 0])
    static let pngData = chunk("IDAT", [0x78, 0x9C, 0x63, 0x60, 0x00, 0x00, 0x00, 0x02, 0x00, 0x01])
    static let pngEnd = chunk("IEND", [])

    /// An 8 × 8 PNG with an author in a text chunk.
    static let png = pngSignature + pngHeader + chunk("tEXt", Array("Author".utf8) + [0] + Array("Ann Smith".utf8)) + pngData + pngEnd
    static let strippedPNG = pngSignature + pngHeader + pngData + pngEnd
}

extension Array where Element == UInt8 {
    func contains(_ text: String) -> Bool { contains(bytes: Array(text.utf8)) }

    func contains(bytes needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, needle.count <= count else { return false }
        return (0...(count - needle.count)).contains { Array(self[$0..<($0 + needle.count)]) == needle }
    }
}
