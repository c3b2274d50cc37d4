/// Reads a JSON text (RFC 8259, UTF-8) into a `JSONDocument` in one pass over its bytes, and finds the
/// first key repeated within an object as it goes.
///
/// A loop over the bytes with the open containers linked through their own nodes, never recursion, so
/// the depth of a hostile text costs no stack; `maxDepth` bounds it as Foundation's decoder does. Every
/// string and number is checked where it stands, read or not: Foundation's decoder checks them only
/// when a value is decoded, and takes trailing commas (`JSONSyntaxError` lists what it lets through).
/// Keys are compared as Swift strings, after their escapes, so `"\u0061"` repeats `"a"` and `"é"`
/// repeats `"e\u0301"` — the comparison a decoder's dictionary of the keys makes.
@usableFromInline
struct JSONParser {
    /// As Foundation: 512 arrays and objects inside one another are read, 513 are not.
    static let maxDepth = 512
    /// Objects with more members than this get a key index, for repeated keys while parsing and for
    /// look-ups while decoding, so a frame of thousands of keys costs linear time, not quadratic.
    static let linearLimit = 16

    private let bytes: UnsafeRawBufferPointer
    private var position: Int
    private var nodes: [JSONNode] = []
    private var strings: [String] = []
    private var objectIndexes: [[String: Int32]] = []
    /// The innermost container being parsed; -1 at the top level.
    private var open = -1
    private var depth = 0
    private var duplicate: DuplicateKeyScan.Duplicate?
    /// A string's bytes with its escapes resolved, for the few strings that have any.
    private var scratch: [UInt8] = []

    private init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
        // A UTF-8 byte order mark is skipped, as Foundation skips it (RFC 8259 §8.1 allows either).
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        position = bytes.starts(with: bom) ? bom.count : 0
        nodes.reserveCapacity(min(bytes.count / 6 + 4, 4096))
        strings.reserveCapacity(min(bytes.count / 12 + 2, 2048))
    }

    @usableFromInline
    static func parse(_ bytes: UnsafeRawBufferPointer) -> Result<JSONDocument, JSONParseFailure> {
        var parser = JSONParser(bytes)
        do {
            try parser.parseText()
        } catch {
            if let duplicate = parser.duplicate { return .failure(.repeatedKey(duplicate, nil)) }
            return .failure(.invalid(error))
        }
        parser.nodes.append(JSONNode(.null))
        let document = JSONDocument(
            nodes: parser.nodes, strings: parser.strings, objectIndexes: parser.objectIndexes, absent: parser.nodes.count - 1)
        if let duplicate = parser.duplicate { return .failure(.repeatedKey(duplicate, document)) }
        return .success(document)
    }

    // MARK: Structure

    private mutating func parseText() throws(JSONSyntaxError) {
        value: while true {
            skipWhitespace()
            guard position < bytes.count else { throw fail(.unexpectedEnd) }
            switch bytes[position] {
            case UInt8(ascii: "{"):
                try openContainer(.object)
                skipWhitespace()
                if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
                    closeContainer()
                } else {
                    try readKey()
                    continue value
                }
            case UInt8(ascii: "["):
                try openContainer(.array)
                skipWhitespace()
                if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
                    closeContainer()
                } else {
                    continue value
                }
            case UInt8(ascii: "\""):
                let text = try readString()
                appendString(text)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                try readNumber()
            case UInt8(ascii: "t"):
                try readLiteral("true", .true)
            case UInt8(ascii: "f"):
                try readLiteral("false", .false)
            case UInt8(ascii: "n"):
                try readLiteral("null", .null)
            case UInt8(ascii: "+"), UInt8(ascii: "."):
                throw fail(.invalidNumber)
            default:
                throw fail(.unexpectedCharacter)
            }
            // A value is complete: count it, then close every container it completes.
            while open >= 0 {
                nodes[open].count += 1
                skipWhitespace()
                guard position < bytes.count else { throw fail(.unexpectedEnd) }
                let byte = bytes[position]
                let isObject = nodes[open].kind == .object
                if byte == UInt8(ascii: ",") {
                    position += 1
                    skipWhitespace()
                    let closing = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
                    if position < bytes.count, bytes[position] == closing { throw fail(.trailingComma) }
                    if isObject { try readKey() }
                    continue value
                }
                guard byte == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) else { throw fail(.unexpectedCharacter) }
                closeContainer()
            }
            skipWhitespace()
            guard position == bytes.count else { throw fail(.trailingGarbage) }
            return
        }
    }

    private mutating func openContainer(_ kind: JSONNode.Kind) throws(JSONSyntaxError) {
        guard depth < Self.maxDepth else { throw fail(.tooDeep) }
        depth += 1
        nodes.append(JSONNode(kind, payload: Int64(open)))
        open = nodes.count - 1
        position += 1
    }

    /// Closes the innermost container at its closing bracket.
    private mutating func closeContainer() {
        let closed = open
        open = Int(nodes[closed].payload)
        nodes[closed].payload = Int64(nodes.count)
        depth -= 1
        position += 1
    }

    /// Reads a member's key and the colon after it.
    private mutating func readKey() throws(JSONSyntaxError) {
        guard position < bytes.count else { throw fail(.unexpectedEnd) }
        guard bytes[position] == UInt8(ascii: "\"") else { throw fail(.unexpectedCharacter) }
        let key = try readString()
        if isRepeated(key, keyNode: nodes.count), duplicate == nil {
            duplicate = DuplicateKeyScan.Duplicate(path: pathOfOpenObject(), key: key)
        }
        appendString(key)
        skipWhitespace()
        guard position < bytes.count else { throw fail(.unexpectedEnd) }
        guard bytes[position] == UInt8(ascii: ":") else { throw fail(.unexpectedCharacter) }
        position += 1
    }

    private mutating func readLiteral(_ literal: StaticString, _ kind: JSONNode.Kind) throws(JSONSyntaxError) {
        let count = literal.utf8CodeUnitCount
        for offset in 0..<count {
            guard position + offset < bytes.count else { throw fail(.unexpectedEnd) }
            guard bytes[position + offset] == literal.utf8Start[offset] else {
                position += offset
                throw fail(.unexpectedCharacter)
            }
        }
        position += count
        nodes.append(JSONNode(kind))
    }

    @inline(__always)
    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"): position += 1
            default: return
            }
        }
    }

    private func fail(_ reason: JSONSyntaxError.Reason) -> JSONSyntaxError {
        JSONSyntaxError(reason, at: position)
    }

    // MARK: Repeated keys

    /// Whether `key` is already a key of the innermost object; when it is not, it is indexed there (if the
    /// object is large) with its value at `keyNode + 1`.
    private mutating func isRepeated(_ key: String, keyNode: Int) -> Bool {
        let object = open
        let slot = Int(nodes[object].index)
        if slot >= 0 {
            if objectIndexes[slot][key] != nil { return true }
            objectIndexes[slot][key] = Int32(keyNode + 1)
            return false
        }
        let count = Int(nodes[object].count)
        var earlier = object + 1
        for _ in 0..<count {
            if strings[Int(nodes[earlier].payload)] == key { return true }
            earlier = next(after: earlier + 1)
        }
        if count >= Self.linearLimit {
            var index: [String: Int32] = [:]
            index.reserveCapacity(count * 2)
            earlier = object + 1
            for _ in 0..<count {
                index[strings[Int(nodes[earlier].payload)]] = Int32(earlier + 1)
                earlier = next(after: earlier + 1)
            }
            index[key] = Int32(keyNode + 1)
            nodes[object].index = Int32(objectIndexes.count)
            objectIndexes.append(index)
        }
        return false
    }

    private func next(after value: Int) -> Int {
        nodes[value].kind.isContainer ? Int(nodes[value].payload) : value + 1
    }

    /// The keys and indices from the top of the text to the innermost object (`["args", "user"]`,
    /// `["extra", "[1]"]`), each open container's parent being linked through its payload.
    private func pathOfOpenObject() -> [String] {
        var components: [String] = []
        var child = open
        var container = Int(nodes[child].payload)
        while container >= 0 {
            if nodes[container].kind == .object {
                components.append(strings[Int(nodes[child - 1].payload)])
            } else {
                components.append("[\(nodes[container].count)]")
            }
            child = container
            container = Int(nodes[container].payload)
        }
        return components.reversed()
    }

    // MARK: Scalars

    private mutating func appendString(_ text: String) {
        strings.append(text)
        nodes.append(JSONNode(.string, payload: Int64(strings.count - 1)))
    }

    /// Reads a string from its opening quote to just past its closing one.
    private mutating func readString() throws(JSONSyntaxError) -> String {
        try JSONStringLiteral.read(bytes, at: &position, scratch: &scratch)
    }

    /// Reads a number as RFC 8259 spells one. A plain integer that fits `Int64` is kept as its value;
    /// anything else as its text, converted when a type asks for it (`JSONNumber`).
    private mutating func readNumber() throws(JSONSyntaxError) {
        let start = position
        let negative = bytes[position] == UInt8(ascii: "-")
        if negative { position += 1 }
        guard position < bytes.count else { throw fail(.invalidNumber) }
        var magnitude: UInt64 = 0
        var fits = true
        switch bytes[position] {
        case UInt8(ascii: "0"):
            position += 1
            if position < bytes.count, isDigit(bytes[position]) { throw fail(.invalidNumber) }
        case UInt8(ascii: "1")...UInt8(ascii: "9"):
            while position < bytes.count, isDigit(bytes[position]) {
                let (product, overflow) = magnitude.multipliedReportingOverflow(by: 10)
                let (sum, carry) = product.addingReportingOverflow(UInt64(bytes[position] - UInt8(ascii: "0")))
                if overflow || carry { fits = false } else { magnitude = sum }
                position += 1
            }
        default:
            throw fail(.invalidNumber)
        }
        var plain = true
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            plain = false
            position += 1
            try skipDigits()
        }
        if position < bytes.count, bytes[position] | 0x20 == UInt8(ascii: "e") {
            plain = false
            position += 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") { position += 1 }
            try skipDigits()
        }
        // `-0` stays text: as a `Double` it is negative zero.
        if plain, fits, magnitude != 0 || !negative {
            if !negative, magnitude <= UInt64(Int64.max) {
                nodes.append(JSONNode(.integer, payload: Int64(magnitude)))
                return
            }
            if negative, magnitude <= UInt64(Int64.max) + 1 {
                nodes.append(JSONNode(.integer, payload: Int64(truncatingIfNeeded: 0 &- magnitude)))
                return
            }
        }
        strings.append(String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self))
        nodes.append(JSONNode(.number, payload: Int64(strings.count - 1)))
    }

    /// One or more digits.
    private mutating func skipDigits() throws(JSONSyntaxError) {
        guard position < bytes.count, isDigit(bytes[position]) else { throw fail(.invalidNumber) }
        while position < bytes.count, isDigit(bytes[position]) { position += 1 }
    }

    @inline(__always)
    private func isDigit(_ byte: UInt8) -> Bool {
        byte &- UInt8(ascii: "0") < 10
    }
}

extension JSONDocument {
    /// Parses `bytes` in place when they are contiguous (a `ByteBuffer`'s view, an array, a native
    /// string's UTF-8), else from one copy.
    @inlinable
    static func parse(_ bytes: some Sequence<UInt8>) -> Result<JSONDocument, JSONParseFailure> {
        if let parsed = bytes.withContiguousStorageIfAvailable({ JSONParser.parse(UnsafeRawBufferPointer($0)) }) {
            return parsed
        }
        return Array(bytes).withUnsafeBytes { JSONParser.parse($0) }
    }
}
