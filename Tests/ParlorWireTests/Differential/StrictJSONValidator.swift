/// Whether a text is JSON as Parlor takes it: RFC 8259's grammar, UTF-8, no unescaped control
/// characters, `\u` escapes that make whole characters (no half surrogate pairs), at most 512 arrays and
/// objects deep, an optional UTF-8 byte order mark. Written as plainly as possible (recursive descent,
/// nothing shared with `JSONParser`), to say independently which texts the parser must refuse.
struct StrictJSONValidator {
    private let bytes: [UInt8]
    private var index = 0

    static func isValid(_ bytes: [UInt8]) -> Bool {
        var validator = StrictJSONValidator(bytes: bytes)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { validator.index = 3 }
        guard validator.value(depth: 0) else { return false }
        validator.skipSpace()
        return validator.index == bytes.count
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipSpace() {
        while let byte = current, [0x20, 0x09, 0x0A, 0x0D].contains(byte) { index += 1 }
    }

    private mutating func expect(_ text: String) -> Bool {
        for byte in text.utf8 {
            guard current == byte else { return false }
            index += 1
        }
        return true
    }

    private mutating func value(depth: Int) -> Bool {
        skipSpace()
        switch current {
        case UInt8(ascii: "{"): return depth < 512 && object(depth: depth + 1)
        case UInt8(ascii: "["): return depth < 512 && array(depth: depth + 1)
        case UInt8(ascii: "\""): return string()
        case UInt8(ascii: "t"): return expect("true")
        case UInt8(ascii: "f"): return expect("false")
        case UInt8(ascii: "n"): return expect("null")
        default: return number()
        }
    }

    private mutating func object(depth: Int) -> Bool {
        index += 1
        skipSpace()
        if current == UInt8(ascii: "}") {
            index += 1
            return true
        }
        while true {
            skipSpace()
            guard current == UInt8(ascii: "\""), string() else { return false }
            skipSpace()
            guard expect(":"), value(depth: depth) else { return false }
            skipSpace()
            if current == UInt8(ascii: "}") {
                index += 1
                return true
            }
            guard expect(",") else { return false }
        }
    }

    private mutating func array(depth: Int) -> Bool {
        index += 1
        skipSpace()
        if current == UInt8(ascii: "]") {
            index += 1
            return true
        }
        while true {
            guard value(depth: depth) else { return false }
            skipSpace()
            if current == UInt8(ascii: "]") {
                index += 1
                return true
            }
            guard expect(",") else { return false }
        }
    }

    private mutating func number() -> Bool {
        func digits() -> Int {
            let start = index
            while let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { index += 1 }
            return index - start
        }
        if current == UInt8(ascii: "-") { index += 1 }
        if current == UInt8(ascii: "0") {
            index += 1
        } else {
            guard let byte = current, (UInt8(ascii: "1")...UInt8(ascii: "9")).contains(byte) else { return false }
            _ = digits()
        }
        if current == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { return false }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { return false }
        }
        return true
    }

    private mutating func string() -> Bool {
        index += 1
        let start = index
        while let byte = current {
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                // The text between the quotes, escapes and all, must be UTF-8.
                return String(validating: bytes[start..<index - 1], as: UTF8.self) != nil
            case UInt8(ascii: "\\"):
                guard let escaped = current else { return false }
                index += 1
                if "\"\\/bfnrt".utf8.contains(escaped) { continue }
                guard escaped == UInt8(ascii: "u"), let unit = hex() else { return false }
                if (0xDC00...0xDFFF).contains(unit) { return false }
                if (0xD800...0xDBFF).contains(unit) {
                    guard expect("\\u"), let low = hex(), (0xDC00...0xDFFF).contains(low) else { return false }
                }
            case 0x00..<0x20:
                return false
            default:
                continue
            }
        }
        return false
    }

    private mutating func hex() -> UInt32? {
        guard index + 4 <= bytes.count, let value = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16),
            bytes[index..<index + 4].allSatisfy({ $0 != UInt8(ascii: "+") && $0 != UInt8(ascii: "-") })
        else { return nil }
        index += 4
        return value
    }
}
