import Foundation
import ParlorRules

/// One photo's files as one file on disk, so that saving a photo is one write and one `fsync`, and
/// reading a tile is one small read: `PQP1`, the number of parts, each part's offset and length
/// (big-endian 64-bit), then the parts — the photo, its tiles in order, and its previews as JSON.
enum PhotoPack {
    static let magic = Array("PQP1".utf8)
    static let headerEntry = 16

    static func encode(_ files: QuizPhotoFiles) throws(StoreError) -> [UInt8] {
        let previews: [UInt8]
        do {
            previews = Array(try JSONEncoder().encode(files.previews))
        } catch {
            throw StoreError(.failed, "Could not encode a photo's previews: \(error)")
        }
        let parts = [files.image] + files.tiles + [previews]
        var out = magic
        append(UInt32(parts.count), to: &out)
        var offset = UInt64(magic.count + 4 + parts.count * headerEntry)
        for part in parts {
            append(offset, to: &out)
            append(UInt64(part.count), to: &out)
            offset += UInt64(part.count)
        }
        for part in parts { out += part }
        return out
    }

    /// Where part `index` is, from the pack's first bytes (`header`) and its total size; nil when the
    /// pack is damaged or has no such part.
    static func location(ofPart index: Int, header: [UInt8], fileSize: Int) -> Range<Int>? {
        guard header.count >= magic.count + 4, Array(header.prefix(magic.count)) == magic else { return nil }
        let count = Int(read32(header, at: magic.count))
        let entry = magic.count + 4 + index * headerEntry
        guard index >= 0, index < count, header.count >= entry + headerEntry else { return nil }
        let offset = read64(header, at: entry)
        let length = read64(header, at: entry + 8)
        guard offset <= UInt64(fileSize), length <= UInt64(fileSize) - offset else { return nil }
        return Int(offset)..<Int(offset + length)
    }

    /// How many header bytes to read to find part `index`.
    static func headerSize(through index: Int) -> Int { magic.count + 4 + (index + 1) * headerEntry }

    static func decodePreviews(_ bytes: [UInt8]) -> TilePreviews? {
        try? JSONDecoder().decode(TilePreviews.self, from: Data(bytes))
    }

    private static func append(_ value: UInt32, to out: inout [UInt8]) {
        for shift in stride(from: 24, through: 0, by: -8) { out.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }

    private static func append(_ value: UInt64, to out: inout [UInt8]) {
        for shift in stride(from: 56, through: 0, by: -8) { out.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }

    private static func read32(_ bytes: [UInt8], at index: Int) -> UInt32 {
        bytes[index..<index + 4].reduce(0) { $0 << 8 | UInt32($1) }
    }

    private static func read64(_ bytes: [UInt8], at index: Int) -> UInt64 {
        bytes[index..<index + 8].reduce(0) { $0 << 8 | UInt64($1) }
    }
}
