import ParlorRules

/// What Parlor reads from a photo's EXIF block: where it was taken, when, and which way up it is.
///
/// EXIF is a TIFF structure (EXIF 2.32 §4.6): a byte-order mark, then image file directories (IFDs) of
/// 12-byte entries whose values sit inline or at offsets. Every offset comes from the file: each is
/// checked against the block's size, each directory is visited at most once (offsets can point in a
/// loop), and a directory may hold at most `maxEntries` entries. A broken first directory makes the block
/// unreadable; a broken EXIF or GPS directory costs only what it holds, so a phone photo whose GPS
/// directory is damaged still keeps its orientation (and its date).
public struct EXIFMetadata: Sendable, Equatable {
    /// 1…8 (EXIF's Orientation): how the stored pixels must be turned to stand upright; nil when absent.
    public var orientation: Int?
    /// DateTimeOriginal, with OffsetTimeOriginal when the camera wrote it.
    public var takenAt: PhotoDate?
    /// The GPS position, when present and valid (latitude −90…90, longitude −180…180, with their refs).
    public var location: GPSCoordinate?

    public init(orientation: Int? = nil, takenAt: PhotoDate? = nil, location: GPSCoordinate? = nil) {
        self.orientation = orientation
        self.takenAt = takenAt
        self.location = location
    }

    public static let maxEntries = 1024

    /// The metadata of a JPEG file; empty when it has no EXIF block.
    public static func read(jpeg: JPEGFile) throws(MediaError) -> EXIFMetadata {
        guard let block = jpeg.exif else { return EXIFMetadata() }
        return try read(tiff: Array(block))
    }

    /// The metadata of an EXIF block (a TIFF structure starting with `II*\0` or `MM\0*`).
    public static func read(tiff: [UInt8]) throws(MediaError) -> EXIFMetadata {
        var reader = try TIFFReader(tiff)
        var metadata = EXIFMetadata()
        let first = try reader.directory(at: reader.firstDirectoryOffset)
        if let value = first[Tag.orientation], let number = reader.integer(value), (1...8).contains(number) {
            metadata.orientation = number
        }
        if let pointer = first[Tag.exifDirectory].flatMap(reader.integer), let exif = try? reader.directory(at: pointer) {
            if let text = exif[Tag.dateTimeOriginal].flatMap(reader.ascii) {
                let offset = exif[Tag.offsetTimeOriginal].flatMap(reader.ascii)
                metadata.takenAt = PhotoDate(exif: text, offset: offset)
            }
        }
        if let pointer = first[Tag.gpsDirectory].flatMap(reader.integer), let gps = try? reader.directory(at: pointer) {
            metadata.location = GPSCoordinate(
                latitudeRef: gps[Tag.latitudeRef].flatMap(reader.ascii),
                latitude: gps[Tag.latitude].flatMap(reader.rationals),
                longitudeRef: gps[Tag.longitudeRef].flatMap(reader.ascii),
                longitude: gps[Tag.longitude].flatMap(reader.rationals))
        }
        return metadata
    }

    enum Tag {
        static let orientation: UInt16 = 0x0112
        static let exifDirectory: UInt16 = 0x8769
        static let gpsDirectory: UInt16 = 0x8825
        static let dateTimeOriginal: UInt16 = 0x9003
        static let offsetTimeOriginal: UInt16 = 0x9011
        static let latitudeRef: UInt16 = 0x0001
        static let latitude: UInt16 = 0x0002
        static let longitudeRef: UInt16 = 0x0003
        static let longitude: UInt16 = 0x0004
    }
}

/// A position in degrees, north and east positive.
public struct GPSCoordinate: Sendable, Equatable, Codable {
    public var latitude: Double
    public var longitude: Double

    public init?(latitude: Double, longitude: Double) {
        guard latitude.isFinite, longitude.isFinite, (-90...90).contains(latitude), (-180...180).contains(longitude) else {
            return nil
        }
        self.latitude = latitude
        self.longitude = longitude
    }

    /// From EXIF's degrees/minutes/seconds rationals and N/S, E/W references; nil unless all four are
    /// there and make a valid position.
    init?(latitudeRef: String?, latitude: [Double]?, longitudeRef: String?, longitude: [Double]?) {
        guard let latitudeRef, let latitude, let longitudeRef, let longitude,
            let north = Self.sign(latitudeRef, positive: "N", negative: "S"),
            let east = Self.sign(longitudeRef, positive: "E", negative: "W"),
            let lat = Self.degrees(latitude), let lon = Self.degrees(longitude)
        else { return nil }
        self.init(latitude: north * lat, longitude: east * lon)
    }

    private static func sign(_ ref: String, positive: String, negative: String) -> Double? {
        switch ref.uppercased() {
        case positive: 1
        case negative: -1
        default: nil
        }
    }

    /// Degrees, minutes and seconds (minutes and seconds may be left out); each part non-negative.
    private static func degrees(_ parts: [Double]) -> Double? {
        guard (1...3).contains(parts.count), parts.allSatisfy({ $0.isFinite && $0 >= 0 }) else { return nil }
        let minutes = parts.count > 1 ? parts[1] : 0
        let seconds = parts.count > 2 ? parts[2] : 0
        guard minutes < 60, seconds < 60 else { return nil }
        return parts[0] + minutes / 60 + seconds / 3600
    }
}

extension PhotoDate {
    /// EXIF's `YYYY:MM:DD HH:MM:SS`, as the camera's clock showed it, with OffsetTimeOriginal
    /// (`+01:00`) when the camera wrote it; nil unless it is a real date (`PhotoDate`'s check). Cameras
    /// write spaces or zeros when the date is unknown.
    public init?(exif text: String, offset: String? = nil) {
        self.init(
            localTime: text.utf8, dateSeparator: UInt8(ascii: ":"), timeSeparator: UInt8(ascii: " "),
            utcOffsetMinutes: offset.flatMap { PhotoDate.utcOffsetMinutes($0.utf8) })
    }
}
