/// A JSON string read from between its quotes into a Swift string: escapes resolved (a character
/// beyond the Basic Multilingual Plane as a pair of `\u` escapes; half a pair is refused), control
/// characters and bytes that are not UTF-8 refused.
enum JSONStringLiteral {
    /// Reads a string from its opening quote (at `position`) to just past its closing one.
    static func read(_ bytes: UnsafeRawBufferPointer, at position: inout Int, scratch: inout [UInt8]) throws(JSONSyntaxError) -> String {
        position += 1
        let start = position
        // Nearly every key and value is plain ASCII with no escapes: one loop, one copy.
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
                position += 1
                return text
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 || byte >= 0x80 { break }
            position += 1
        }
        return try readWithEscapes(bytes, from: start, at: &position, scratch: &scratch)
    }

    private static func readWithEscapes(
        _ bytes: UnsafeRawBufferPointer, from start: Int, at position: inout Int, scratch: inout [UInt8]
    ) throws(JSONSyntaxError) -> String {
        var escaped = false
        var run = start
        scratch.removeAll(keepingCapacity: true)
        while position < bytes.count {
            switch bytes[position] {
            case UInt8(ascii: "\""):
                let raw = UnsafeRawBufferPointer(rebasing: bytes[run..<position])
                let text: String?
                if escaped {
                    // Escapes only ever add whole UTF-8 sequences, so checking the joined bytes checks the raw runs.
                    scratch.append(contentsOf: raw)
                    text = String(validating: scratch, as: UTF8.self)
                } else {
                    text = String(validating: raw, as: UTF8.self)
                }
                guard let text else { throw JSONSyntaxError(.invalidUTF8, at: start) }
                position += 1
                return text
            case UInt8(ascii: "\\"):
                scratch.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[run..<position]))
                try readEscape(bytes, at: &position, scratch: &scratch)
                escaped = true
                run = position
            case 0..<0x20:
                throw JSONSyntaxError(.controlCharacter, at: position)
            default:
                position += 1
            }
        }
        throw JSONSyntaxError(.unexpectedEnd, at: position)
    }

    /// Appends the character an escape stands for to `scratch`.
    private static func readEscape(_ bytes: UnsafeRawBufferPointer, at position: inout Int, scratch: inout [UInt8]) throws(JSONSyntaxError) {
        guard position + 1 < bytes.count else { throw JSONSyntaxError(.unexpectedEnd, at: position) }
        let letter = bytes[position + 1]
        let simple: UInt8? = switch letter {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): letter
        case UInt8(ascii: "b"): 0x08
        case UInt8(ascii: "f"): 0x0C
        case UInt8(ascii: "n"): 0x0A
        case UInt8(ascii: "r"): 0x0D
        case UInt8(ascii: "t"): 0x09
        default: nil
        }
        if let simple {
            scratch.append(simple)
            position += 2
            return
        }
        guard letter == UInt8(ascii: "u") else { throw JSONSyntaxError(.invalidEscape, at: position) }
        position += 2
        var unit = try readHex4(bytes, at: &position)
        if UTF16.isTrailSurrogate(UInt16(unit)) { throw JSONSyntaxError(.loneSurrogate, at: position) }
        if UTF16.isLeadSurrogate(UInt16(unit)) {
            guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") else {
                throw JSONSyntaxError(.loneSurrogate, at: position)
            }
            position += 2
            let low = try readHex4(bytes, at: &position)
            guard UTF16.isTrailSurrogate(UInt16(low)) else { throw JSONSyntaxError(.loneSurrogate, at: position) }
            unit = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
        }
        guard let scalar = Unicode.Scalar(unit) else { throw JSONSyntaxError(.loneSurrogate, at: position) }
        UTF8.encode(scalar) { scratch.append($0) }
    }

    private static func readHex4(_ bytes: UnsafeRawBufferPointer, at position: inout Int) throws(JSONSyntaxError) -> UInt32 {
        guard position + 4 <= bytes.count else { throw JSONSyntaxError(.unexpectedEnd, at: position) }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw JSONSyntaxError(.invalidEscape, at: position)
            }
            value = value << 4 | UInt32(digit)
            position += 1
        }
        return value
    }
}
