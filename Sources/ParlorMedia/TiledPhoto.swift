/// A photo made ready for a quiz: decoded once, turned upright, scaled to a sensible size and cut into a
/// grid of tiles, each encoded as a JPEG of its own, with a tiny RGB preview of each tile a terminal can
/// draw. Everything it holds was encoded from pixels, so none of it carries the upload's EXIF (or any
/// other metadata).
public struct TiledPhoto: Sendable {
    /// What a photo may be, and what is made of it. Every field has the default the server uses.
    public struct Limits: Sendable {
        /// Declared pixels beyond this are refused before decoding (a 48-megapixel phone photo passes;
        /// a 15 MiB file claiming 65535 × 65535 does not).
        public var maxPixels = 52_000_000
        public var maxSide = 12_000
        /// Smaller photos cannot be cut into tiles worth looking at.
        public var minSide = 60
        /// The longer side of the photo as served (and as cut).
        public var outputSide = 1200
        /// Tiles a side.
        public var grid = 6
        /// Preview pixels on a tile's longer side.
        public var previewSide = 6
        public var quality = 85

        public init() {}
    }

    /// The photo as served, upright: `width × height`, both multiples of the grid.
    public let width: Int
    public let height: Int
    public let image: [UInt8]
    /// `grid × grid` JPEGs in reading order (left to right, top to bottom).
    public let tiles: [[UInt8]]
    public let previewWidth: Int
    public let previewHeight: Int
    /// One per tile, in the same order: `previewWidth × previewHeight` RGB pixels.
    public let previews: [[UInt8]]

    /// Decodes and cuts the JPEG `file`, whose EXIF says it is stored turned as `orientation`.
    public static func make(from file: JPEGFile, orientation: Int?, limits: Limits = Limits()) throws(MediaError) -> TiledPhoto {
        let (storedWidth, storedHeight) = try JPEGCodec.dimensions(of: file.bytes)
        guard storedWidth <= limits.maxSide, storedHeight <= limits.maxSide, storedWidth * storedHeight <= limits.maxPixels else {
            throw MediaError(
                .unsupportedSize,
                "the photo is \(storedWidth) × \(storedHeight) pixels; at most \(limits.maxSide) a side and \(limits.maxPixels / 1_000_000) megapixels are accepted")
        }
        guard min(storedWidth, storedHeight) >= limits.minSide else {
            throw MediaError(.unsupportedSize, "the photo is \(storedWidth) × \(storedHeight) pixels; it must be at least \(limits.minSide) a side")
        }
        let transposed = (5...8).contains(orientation ?? 1)
        let (uprightWidth, uprightHeight) = transposed ? (storedHeight, storedWidth) : (storedWidth, storedHeight)
        let scale = min(1, Double(limits.outputSide) / Double(max(uprightWidth, uprightHeight)))
        let fitWidth = max(limits.minSide, Int((Double(uprightWidth) * scale).rounded()))
        let fitHeight = max(limits.minSide, Int((Double(uprightHeight) * scale).rounded()))
        let decoded = try JPEGCodec.decode(file.bytes, atLeast: transposed ? fitHeight : fitWidth, transposed ? fitWidth : fitHeight)
        let upright = decoded.oriented(orientation)
        let fitted = upright.scaled(width: min(fitWidth, upright.width), height: min(fitHeight, upright.height))
        // Whole tiles only: a few pixels at the right and bottom edge go.
        let grid = limits.grid
        let photo = fitted.cropped(x: 0, y: 0, width: fitted.width - fitted.width % grid, height: fitted.height - fitted.height % grid)
        let tileWidth = photo.width / grid
        let tileHeight = photo.height / grid
        let long = max(tileWidth, tileHeight)
        let previewWidth = tileWidth == long ? limits.previewSide : max(2, (limits.previewSide * tileWidth + long / 2) / long)
        let previewHeight = tileHeight == long ? limits.previewSide : max(2, (limits.previewSide * tileHeight + long / 2) / long)
        var tiles: [[UInt8]] = []
        var previews: [[UInt8]] = []
        for row in 0..<grid {
            for column in 0..<grid {
                let tile = photo.cropped(x: column * tileWidth, y: row * tileHeight, width: tileWidth, height: tileHeight)
                tiles.append(try JPEGCodec.encode(tile, quality: limits.quality))
                previews.append(tile.scaled(width: previewWidth, height: previewHeight).pixels)
            }
        }
        return TiledPhoto(
            width: photo.width, height: photo.height, image: try JPEGCodec.encode(photo, quality: limits.quality), tiles: tiles,
            previewWidth: previewWidth, previewHeight: previewHeight, previews: previews)
    }
}
