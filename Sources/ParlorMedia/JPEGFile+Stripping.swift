extension JPEGFile {
    /// The same image without the metadata that can say who took it, where and with what: EXIF
    /// (GPS included, and the thumbnail it carries), XMP, IPTC/Photoshop blocks, MPF pictures,
    /// maker notes and comments. What decoding needs stays: the JFIF header, the ICC colour profile,
    /// Adobe's colour-transform flag, the tables and the image data, byte for byte.
    ///
    /// Only the orientation survives, in a minimal EXIF block of its own, so a phone photo taken
    /// sideways is still shown upright.
    public func withoutMetadata() throws(MediaError) -> [UInt8] {
        let orientation = (try? EXIFMetadata.read(jpeg: self))?.orientation
        var out: [UInt8] = [0xFF, Self.startOfImage]
        out.reserveCapacity(bytes.count)
        var orientationWritten = orientation == nil || orientation == 1
        for segment in segments {
            if !orientationWritten && !(segment.marker == 0xE0 && bytes[segment.payload].starts(with: Self.jfifSignature)) {
                out += Self.orientationBlock(orientation ?? 1)
                orientationWritten = true
            }
            if keeps(segment) { out += bytes[segment.range] }
        }
        return out
    }

    private static let jfifSignature: [UInt8] = Array("JFIF".utf8) + [0]
    private static let iccSignature: [UInt8] = Array("ICC_PROFILE".utf8) + [0]
    private static let adobeSignature: [UInt8] = Array("Adobe".utf8)

    private func keeps(_ segment: Segment) -> Bool {
        let payload = bytes[segment.payload]
        switch segment.marker {
        case 0xE0: return payload.starts(with: Self.jfifSignature)
        case 0xE2: return payload.starts(with: Self.iccSignature)
        case 0xEE: return payload.starts(with: Self.adobeSignature)
        case 0xE1, 0xE3...0xED, 0xEF, Self.comment: return false
        default: return true
        }
    }

    /// APP1 with an EXIF block holding one entry, Orientation.
    static func orientationBlock(_ orientation: Int) -> [UInt8] {
        let value = UInt8(clamping: orientation)
        let tiff: [UInt8] = [
            0x4D, 0x4D, 0x00, 0x2A, 0x00, 0x00, 0x00, 0x08,  // big-endian TIFF, first directory at 8
            0x00, 0x01,  // one entry
            0x01, 0x12, 0x00, 0x03, 0x00, 0x00, 0x00, 0x01, 0x00, value, 0x00, 0x00,  // Orientation, SHORT × 1
            0x00, 0x00, 0x00, 0x00,  // no next directory
        ]
        let length = 2 + exifSignature.count + tiff.count
        return [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + exifSignature + tiff
    }
}
