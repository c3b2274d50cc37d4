import Foundation

/// Real JPEG photos made for a test by Python's Pillow and piexif (installed by `scripts/setup.sh
/// --test`): a picture in four coloured quarters (red top left, green top right, blue bottom left,
/// white bottom right, as it should be seen) with the EXIF tags a test asks for.
public enum TestPhotos {
    public struct Spec: Sendable, Encodable {
        public var width: Int
        public var height: Int
        /// Degrees, north and east positive; nil for a photo without GPS tags.
        public var latitude: Double?
        public var longitude: Double?
        /// EXIF's `YYYY:MM:DD HH:MM:SS`.
        public var taken: String?
        /// `+02:00`.
        public var offset: String?
        /// EXIF orientation 1…8: the pixels are stored turned so that a viewer applying it sees the
        /// quarters upright.
        public var orientation: Int?
        /// A progressive JPEG rather than a baseline one.
        public var progressive: Bool

        public init(
            width: Int = 480, height: Int = 360, latitude: Double? = nil, longitude: Double? = nil, taken: String? = nil,
            offset: String? = nil, orientation: Int? = nil, progressive: Bool = false
        ) {
            self.width = width
            self.height = height
            self.latitude = latitude
            self.longitude = longitude
            self.taken = taken
            self.offset = offset
            self.orientation = orientation
            self.progressive = progressive
        }

        /// A photo taken at a place.
        public static func at(_ latitude: Double, _ longitude: Double, taken: String? = "2024:06:14 09:30:00", offset: String? = nil) -> Spec {
            Spec(latitude: latitude, longitude: longitude, taken: taken, offset: offset)
        }
    }

    /// The JPEG files, in order: one Python process makes them all.
    public static func make(_ specs: [Spec]) async throws -> [[UInt8]] {
        let directory = NSTemporaryDirectory() + "parlor-photos-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let request = try JSONEncoder().encode(specs)
        let process = try ExternalProcess(["python3", "-c", script, directory], stdin: request)
        let result = try await process.wait(timeout: .seconds(60))
        guard result.status == 0 else {
            throw TestFailure("making test photos failed (run scripts/setup.sh --test for Pillow and piexif): \(result.stderr)")
        }
        return try specs.indices.map { index in
            Array(try Data(contentsOf: URL(fileURLWithPath: "\(directory)/\(index).jpg")))
        }
    }

    public static func make(_ spec: Spec) async throws -> [UInt8] {
        try await make([spec])[0]
    }

    /// Reads specs as JSON on stdin; writes `<n>.jpg` into the directory given.
    static let script = #"""
import io, json, sys
from fractions import Fraction
from PIL import Image
import piexif

def dms(value):
    value = abs(value)
    degrees = int(value)
    minutes = int((value - degrees) * 60)
    seconds = Fraction((value - degrees - minutes / 60) * 3600).limit_denominator(10000)
    return ((degrees, 1), (minutes, 1), (seconds.numerator, seconds.denominator))

# How to store an upright picture so that applying EXIF orientation n shows it upright again.
STORE = {1: [], 2: [Image.Transpose.FLIP_LEFT_RIGHT], 3: [Image.Transpose.ROTATE_180], 4: [Image.Transpose.FLIP_TOP_BOTTOM],
         5: [Image.Transpose.TRANSPOSE], 6: [Image.Transpose.ROTATE_90], 7: [Image.Transpose.TRANSVERSE], 8: [Image.Transpose.ROTATE_270]}

for index, spec in enumerate(json.load(sys.stdin)):
    w, h = spec["width"], spec["height"]
    image = Image.new("RGB", (w, h), (255, 255, 255))
    image.paste((220, 20, 20), (0, 0, w // 2, h // 2))
    image.paste((20, 200, 20), (w // 2, 0, w, h // 2))
    image.paste((20, 20, 220), (0, h // 2, w // 2, h))
    for op in STORE[spec.get("orientation") or 1]:
        image = image.transpose(op)
    zeroth, exif, gps = {}, {}, {}
    if spec.get("orientation"):
        zeroth[piexif.ImageIFD.Orientation] = spec["orientation"]
    zeroth[piexif.ImageIFD.Make] = b"ParlorTestCamera"
    if spec.get("taken"):
        exif[piexif.ExifIFD.DateTimeOriginal] = spec["taken"].encode()
    if spec.get("offset"):
        exif[piexif.ExifIFD.OffsetTimeOriginal] = spec["offset"].encode()
    if spec.get("latitude") is not None:
        lat, lon = spec["latitude"], spec["longitude"]
        gps[piexif.GPSIFD.GPSLatitudeRef] = b"N" if lat >= 0 else b"S"
        gps[piexif.GPSIFD.GPSLatitude] = dms(lat)
        gps[piexif.GPSIFD.GPSLongitudeRef] = b"E" if lon >= 0 else b"W"
        gps[piexif.GPSIFD.GPSLongitude] = dms(lon)
    data = piexif.dump({"0th": zeroth, "Exif": exif, "GPS": gps, "1st": {}, "thumbnail": None})
    image.save(f"{sys.argv[1]}/{index}.jpg", "JPEG", quality=90, exif=data, progressive=bool(spec.get("progressive")))
"""#
}
