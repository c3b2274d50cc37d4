extension JPEGFile {
    /// Width and height in pixels, from the first start-of-frame segment (any SOFn: baseline,
    /// progressive, lossless…); nil when there is none or it declares no height (a DNL file, which no
    /// camera writes).
    public var pixelSize: (width: Int, height: Int)? {
        guard let frame = segments.first(where: { Self.startOfFrameMarkers.contains($0.marker) }), frame.payload.count >= 5 else {
            return nil
        }
        let start = frame.payload.lowerBound
        let height = Int(bytes[start + 1]) << 8 | Int(bytes[start + 2])
        let width = Int(bytes[start + 3]) << 8 | Int(bytes[start + 4])
        return height == 0 ? nil : (width, height)
    }

    /// SOF0–SOF15 but DHT (0xC4), JPG (0xC8) and DAC (0xCC), which share the range.
    static let startOfFrameMarkers: Set<UInt8> = Set(0xC0...0xCF).subtracting([0xC4, 0xC8, 0xCC])
}
