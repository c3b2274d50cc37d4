import CTurboJPEG

/// Decoded pixels: 8-bit RGB, packed, rows top to bottom.
public struct RGBImage: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// `width × height × 3` bytes.
    public let pixels: [UInt8]

    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(width > 0 && height > 0 && pixels.count == width * height * 3, "RGB pixels of \(width) × \(height)")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// The pixel at (x, y) as (r, g, b).
    public func pixel(x: Int, y: Int) -> (UInt8, UInt8, UInt8) {
        let offset = (y * width + x) * 3
        return (pixels[offset], pixels[offset + 1], pixels[offset + 2])
    }

    /// Upright, as EXIF orientation `orientation` (1…8) says the stored pixels must be turned; nil or
    /// anything else leaves them as they are.
    public func oriented(_ orientation: Int?) -> RGBImage {
        guard let orientation, (2...8).contains(orientation) else { return self }
        let transposed = orientation >= 5
        var output = [UInt8](repeating: 0, count: pixels.count)
        pixels.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { destination in
                parlor_rgb_orient(source.baseAddress, Int32(width), Int32(height), Int32(orientation), destination.baseAddress)
            }
        }
        return RGBImage(width: transposed ? height : width, height: transposed ? width : height, pixels: output)
    }

    /// Scaled down to `width × height` (each at most the current size) by averaging.
    public func scaled(width newWidth: Int, height newHeight: Int) -> RGBImage {
        precondition(newWidth > 0 && newHeight > 0 && newWidth <= width && newHeight <= height, "scaling down only")
        if newWidth == width && newHeight == height { return self }
        var output = [UInt8](repeating: 0, count: newWidth * newHeight * 3)
        pixels.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { destination in
                parlor_rgb_scale(
                    source.baseAddress, Int32(width), Int32(height), destination.baseAddress, Int32(newWidth), Int32(newHeight))
            }
        }
        return RGBImage(width: newWidth, height: newHeight, pixels: output)
    }

    /// The rectangle at (x, y) of `width × height`, which must lie inside the image.
    public func cropped(x: Int, y: Int, width cropWidth: Int, height cropHeight: Int) -> RGBImage {
        precondition(x >= 0 && y >= 0 && cropWidth > 0 && cropHeight > 0 && x + cropWidth <= width && y + cropHeight <= height, "a crop inside")
        var output = [UInt8](repeating: 0, count: cropWidth * cropHeight * 3)
        pixels.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { destination in
                parlor_rgb_crop(
                    source.baseAddress, Int32(width), Int32(x), Int32(y), Int32(cropWidth), Int32(cropHeight), destination.baseAddress)
            }
        }
        return RGBImage(width: cropWidth, height: cropHeight, pixels: output)
    }
}
