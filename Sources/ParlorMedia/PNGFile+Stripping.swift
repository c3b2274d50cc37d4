extension PNGFile {
    /// Chunks that say who made the picture, when, where and with what: free text (author, comments,
    /// software, and the XMP that editors put in `iTXt`), EXIF (with GPS), and the last-modified time.
    public static let metadataChunks: Set<String> = ["tEXt", "iTXt", "zTXt", "eXIf", "tIME"]

    /// The same image without its metadata chunks; everything a decoder needs (the header, palette,
    /// transparency, colour information and image data) stays, byte for byte.
    public func withoutMetadata() -> [UInt8] {
        var out = Self.signature
        out.reserveCapacity(bytes.count)
        for chunk in chunks where !Self.metadataChunks.contains(chunk.type) {
            out += bytes[chunk.range]
        }
        return out
    }
}
