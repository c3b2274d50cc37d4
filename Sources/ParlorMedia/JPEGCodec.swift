import CTurboJPEG

/// JPEG in and out through libjpeg-turbo's TurboJPEG API. Every call opens its own handle (TurboJPEG
/// handles are not to be shared between threads), so decoding can run on any thread of a pool.
public enum JPEGCodec {
    /// The size a JPEG declares in its frame header, read without decoding a pixel.
    public static func dimensions(of jpeg: [UInt8]) throws(MediaError) -> (width: Int, height: Int) {
        let handle = try Handle(decompressing: true)
        var width: Int32 = 0
        var height: Int32 = 0
        var subsampling: Int32 = 0
        var colorspace: Int32 = 0
        let status = jpeg.withUnsafeBufferPointer { bytes in
            tjDecompressHeader3(handle.raw, bytes.baseAddress, UInt(bytes.count), &width, &height, &subsampling, &colorspace)
        }
        guard status == 0, width > 0, height > 0 else { throw handle.error("reading the JPEG header") }
        return (Int(width), Int(height))
    }

    /// Decodes `jpeg` into RGB, letting the decoder scale it down by the largest of its factors
    /// (1/2, 1/4, 1/8, …) that still leaves at least `minimumWidth × minimumHeight` — far cheaper than
    /// decoding every pixel and averaging them away. A stream that decodes with only a warning (a
    /// truncated file, as phones write now and then) is kept.
    public static func decode(_ jpeg: [UInt8], atLeast minimumWidth: Int, _ minimumHeight: Int) throws(MediaError) -> RGBImage {
        let (width, height) = try dimensions(of: jpeg)
        var count: Int32 = 0
        var chosen = tjscalingfactor(num: 1, denom: 1)
        if let factors = tjGetScalingFactors(&count), count > 0 {
            for factor in UnsafeBufferPointer(start: factors, count: Int(count)) where factor.num < factor.denom {
                let scaledWidth = scaled(width, factor)
                let scaledHeight = scaled(height, factor)
                if scaledWidth >= minimumWidth && scaledHeight >= minimumHeight && scaledWidth < scaled(width, chosen) {
                    chosen = factor
                }
            }
        }
        let outputWidth = scaled(width, chosen)
        let outputHeight = scaled(height, chosen)
        let handle = try Handle(decompressing: true)
        var pixels = [UInt8](repeating: 0, count: outputWidth * outputHeight * 3)
        let status = jpeg.withUnsafeBufferPointer { bytes in
            pixels.withUnsafeMutableBufferPointer { output in
                // At most 500 progressive scans (libjpeg-turbo's own bound), so a crafted file cannot
                // make the decoder loop for minutes.
                tjDecompress2(
                    handle.raw, bytes.baseAddress, UInt(bytes.count), output.baseAddress, Int32(outputWidth), 0, Int32(outputHeight),
                    Int32(TJPF_RGB.rawValue), TJFLAG_LIMITSCANS | TJFLAG_ACCURATEDCT)
            }
        }
        if status != 0 && tjGetErrorCode(handle.raw) != Int32(TJERR_WARNING.rawValue) {
            throw handle.error("decoding the JPEG")
        }
        return RGBImage(width: outputWidth, height: outputHeight, pixels: pixels)
    }

    /// `image` as a baseline JPEG (4:2:0) of `quality` 1…100: a JFIF file with no metadata at all.
    public static func encode(_ image: RGBImage, quality: Int) throws(MediaError) -> [UInt8] {
        let handle = try Handle(decompressing: false)
        var buffer: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        defer { if let buffer { tjFree(buffer) } }
        let status = image.pixels.withUnsafeBufferPointer { pixels in
            tjCompress2(
                handle.raw, pixels.baseAddress, Int32(image.width), 0, Int32(image.height), Int32(TJPF_RGB.rawValue), &buffer, &size,
                Int32(TJSAMP_420.rawValue), Int32(min(max(quality, 1), 100)), TJFLAG_ACCURATEDCT)
        }
        guard status == 0, let buffer else { throw handle.error("encoding a JPEG") }
        return Array(UnsafeBufferPointer(start: buffer, count: Int(size)))
    }

    private static func scaled(_ dimension: Int, _ factor: tjscalingfactor) -> Int {
        (dimension * Int(factor.num) + Int(factor.denom) - 1) / Int(factor.denom)
    }

    /// A TurboJPEG instance, destroyed with its owner.
    private final class Handle {
        let raw: tjhandle

        init(decompressing: Bool) throws(MediaError) {
            guard let raw = decompressing ? tjInitDecompress() : tjInitCompress() else {
                throw MediaError(.malformed, "libjpeg-turbo could not start")
            }
            self.raw = raw
        }

        deinit { tjDestroy(raw) }

        func error(_ doing: String) -> MediaError {
            let reason = tjGetErrorStr2(raw).map { String(cString: $0) } ?? "unknown error"
            return MediaError(.malformed, "\(doing): \(reason)")
        }
    }
}
