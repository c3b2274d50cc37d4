@testable import ParlorMedia

/// Builds small PNG files chunk by chunk (CRCs are zero: nothing here checks them).
enum PNGBuilder {
    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let length = UInt32(data.count)
        return [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)]
            + Array(type.utf8) + data + [0, 0, 0, 0]
    }

    /// 640 × 480, 8-bit RGBA.
    static let header = chunk("IHDR", [0, 0, 2, 0x80, 0, 0, 1, 0xE0, 8, 6, 0, 0, 0])
    static let colour = chunk("sRGB", [0])
    static let data = chunk("IDAT", [0x78, 0x9C, 0x63, 0x60, 0x00, 0x00, 0x00, 0x02, 0x00, 0x01])
    static let text = chunk("tEXt", Array("Author".utf8) + [0] + Array("Ann".utf8))
    static let international = chunk("iTXt", Array("XML:com.adobe.xmp".utf8) + [0, 0, 0, 0, 0] + Array("<x:xmpmeta GPS/>".utf8))
    static let compressed = chunk("zTXt", Array("Comment".utf8) + [0, 0, 0x78, 0x9C, 0x03, 0x00])
    static let exif = chunk("eXIf", TIFFBuilder.photo(orientation: 1))
    static let time = chunk("tIME", [0x07, 0xEA, 10, 10, 20, 0, 0])
    static let end = chunk("IEND", [])

    static func file(_ chunks: [[UInt8]]) -> [UInt8] { PNGFile.signature + chunks.flatMap { $0 } }
}
