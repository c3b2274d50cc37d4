/// Writes JSON straight into bytes, for the few documents encoded on every change (a room's view, a
/// stored room): Foundation's `JSONEncoder` spends ~50 µs on an 8-player room, this a few µs.
///
/// It writes exactly what it is told, in that order; callers list keys sorted, so the output matches
/// `WireJSON.encoder()` byte for byte (tests hold it to that).
public struct JSONWriter {
    public private(set) var bytes: [UInt8]
    /// For each open object or array: whether it already has an element (so the next needs a comma).
    private var hasElement: [Bool] = []
    /// A key was just written; its value needs no comma.
    private var afterKey = false

    public init(capacity: Int = 1024) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    private mutating func separate() {
        if afterKey {
            afterKey = false
            return
        }
        if let last = hasElement.last {
            if last { bytes.append(UInt8(ascii: ",")) }
            hasElement[hasElement.count - 1] = true
        }
    }

    public mutating func beginObject() {
        separate()
        bytes.append(UInt8(ascii: "{"))
        hasElement.append(false)
    }

    public mutating func endObject() {
        bytes.append(UInt8(ascii: "}"))
        hasElement.removeLast()
    }

    public mutating func beginArray() {
        separate()
        bytes.append(UInt8(ascii: "["))
        hasElement.append(false)
    }

    public mutating func endArray() {
        bytes.append(UInt8(ascii: "]"))
        hasElement.removeLast()
    }

    /// A key. Keys are literals, written as they are: they are never escaped, so they must not need it.
    public mutating func key(_ name: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
        afterKey = true
    }

    /// A key only known at run time (a log record's metadata), escaped as a string is.
    public mutating func escapedKey(_ name: String) {
        separate()
        WireJSON.appendString(name, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        afterKey = true
    }

    public mutating func string(_ value: String) {
        separate()
        WireJSON.appendString(value, to: &bytes)
    }

    /// Not generic on purpose: a generic method called from another module runs unspecialized,
    /// through protocol witnesses, at several times the cost (it was 5% of a persisting server).
    public mutating func int(_ value: Int) {
        int(Int64(value))
    }

    public mutating func int(_ value: Int64) {
        separate()
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        // Count the digits, then fill them in from the end: no temporary array.
        var magnitude = value.magnitude
        var count = 0
        var rest = magnitude
        repeat {
            count += 1
            rest /= 10
        } while rest > 0
        var index = bytes.count + count - 1
        bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: count))
        repeat {
            bytes[index] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: magnitude % 10)
            magnitude /= 10
            index -= 1
        } while magnitude > 0
    }

    public mutating func bool(_ value: Bool) {
        separate()
        if value {
            bytes.append(contentsOf: [0x74, 0x72, 0x75, 0x65])  // true
        } else {
            bytes.append(contentsOf: [0x66, 0x61, 0x6C, 0x73, 0x65])  // false
        }
    }

    public mutating func null() {
        separate()
        bytes.append(contentsOf: [0x6E, 0x75, 0x6C, 0x6C])  // null
    }

    /// A value already encoded as JSON.
    public mutating func raw(_ json: EncodedJSON) {
        separate()
        bytes += json.bytes
    }

    // Shorthands for `"key": value`.
    public mutating func field(_ name: StaticString, _ value: String) { key(name); string(value) }
    public mutating func field(_ name: StaticString, _ value: Int) { key(name); int(value) }
    public mutating func field(_ name: StaticString, _ value: Bool) { key(name); bool(value) }

    public var encoded: EncodedJSON { EncodedJSON(trustedBytes: bytes) }
}
