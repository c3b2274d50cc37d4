/// An array of a `JSONDocument`, read in order. Errors name the element as Foundation does
/// (`Index 2`), and `decodeIfPresent` moves on even past the end, as Foundation's does.
struct DocumentUnkeyedContainer: UnkeyedDecodingContainer {
    let decoder: DocumentDecoder
    let pathNode: CodingPathNode
    let count: Int?
    private(set) var currentIndex = 0
    /// The current element's node, while there is one.
    private var element: Int

    init(decoder: DocumentDecoder, array: Int, path: CodingPathNode) {
        self.decoder = decoder
        pathNode = path
        count = decoder.document.count(array)
        element = array + 1
    }

    var codingPath: [any CodingKey] { pathNode.path }

    var isAtEnd: Bool { currentIndex >= elementCount }

    private var elementCount: Int { count ?? 0 }

    private var indexKey: JSONCodingKey { JSONCodingKey(index: currentIndex) }

    private mutating func advance() {
        if currentIndex < elementCount { element = decoder.document.next(after: element) }
        currentIndex += 1
    }

    /// The current element; `type` and `message` describe the failure at the end, as Foundation's do.
    private func next<T>(_ type: T.Type, message: String = "Unkeyed container is at end.") throws -> Int {
        guard currentIndex < elementCount else {
            throw DecodingError.valueNotFound(type, DecodingError.Context(
                codingPath: pathNode.path(appendingIndex: currentIndex), debugDescription: message))
        }
        return element
    }

    /// The current element, or nil at the end or when it is null (and then the container moves on).
    private mutating func presentElement() -> Int? {
        guard currentIndex < elementCount, decoder.document.kind(element) != .null else {
            advance()
            return nil
        }
        return element
    }

    mutating func decodeNil() throws -> Bool {
        guard decoder.document.kind(try next(Never.self)) == .null else { return false }
        advance()
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try read(type) { try $0.bool($1, $2, $3) } }
    mutating func decode(_ type: String.Type) throws -> String { try read(type) { try $0.string($1, $2, $3) } }
    mutating func decode(_ type: Double.Type) throws -> Double { try floatingPoint(type) }
    mutating func decode(_ type: Float.Type) throws -> Float { try floatingPoint(type) }
    mutating func decode(_ type: Int.Type) throws -> Int { try integer(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
    mutating func decode(_ type: Int128.Type) throws -> Int128 { try integer(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }
    mutating func decode(_ type: UInt128.Type) throws -> UInt128 { try integer(type) }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try read(type) { try $0.unwrap($1, as: type, $2, $3) }
    }

    mutating func decodeIfPresent(_ type: Bool.Type) throws -> Bool? {
        try readIfPresent { try $0.bool($1, $2, $3) }
    }

    mutating func decodeIfPresent(_ type: String.Type) throws -> String? {
        try readIfPresent { try $0.string($1, $2, $3) }
    }

    mutating func decodeIfPresent(_ type: Double.Type) throws -> Double? { try floatingPointIfPresent(type) }
    mutating func decodeIfPresent(_ type: Float.Type) throws -> Float? { try floatingPointIfPresent(type) }
    mutating func decodeIfPresent(_ type: Int.Type) throws -> Int? { try integerIfPresent(type) }
    mutating func decodeIfPresent(_ type: Int8.Type) throws -> Int8? { try integerIfPresent(type) }
    mutating func decodeIfPresent(_ type: Int16.Type) throws -> Int16? { try integerIfPresent(type) }
    mutating func decodeIfPresent(_ type: Int32.Type) throws -> Int32? { try integerIfPresent(type) }
    mutating func decodeIfPresent(_ type: Int64.Type) throws -> Int64? { try integerIfPresent(type) }
    mutating func decodeIfPresent(_ type: UInt.Type) throws -> UInt? { try integerIfPresent(type) }
    mutating func decodeIfPresent(_ type: UInt8.Type) throws -> UInt8? { try integerIfPresent(type) }
    mutating func decodeIfPresent(_ type: UInt16.Type) throws -> UInt16? { try integerIfPresent(type) }
    mutating func decodeIfPresent(_ type: UInt32.Type) throws -> UInt32? { try integerIfPresent(type) }
    mutating func decodeIfPresent(_ type: UInt64.Type) throws -> UInt64? { try integerIfPresent(type) }

    mutating func decodeIfPresent<T: Decodable>(_ type: T.Type) throws -> T? {
        try readIfPresent { try $0.unwrap($1, as: type, $2, $3) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try read(KeyedDecodingContainer<NestedKey>.self) { try $0.keyedContainer($1, at: $2.appending($3), keyedBy: type) }
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try read((any UnkeyedDecodingContainer).self) { try $0.unkeyedContainer($1, at: $2.appending($3)) }
    }

    mutating func superDecoder() throws -> any Decoder {
        let value = try next((any Decoder).self, message: "Cannot get superDecoder() -- unkeyed container is at end.")
        let superDecoder = DocumentDecoder(decoder.document, value: value, path: pathNode.appending(indexKey))
        advance()
        return superDecoder
    }

    /// What `read` hands its body: the decoder, the element, this container's path and the element's key.
    private typealias Reader<T> = (DocumentDecoder, Int, CodingPathNode, JSONCodingKey) throws -> T

    /// Reads the current element and moves on; at the end, or when reading fails, stays where it is.
    @inline(__always)
    private mutating func read<T>(_ type: T.Type, _ body: Reader<T>) throws -> T {
        let result = try body(decoder, try next(type), pathNode, indexKey)
        advance()
        return result
    }

    @inline(__always)
    private mutating func readIfPresent<T>(_ body: Reader<T>) throws -> T? {
        guard let value = presentElement() else { return nil }
        let result = try body(decoder, value, pathNode, indexKey)
        advance()
        return result
    }

    @inline(__always)
    private mutating func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        try read(type) { try $0.integer($1, as: type, $2, $3) }
    }

    @inline(__always)
    private mutating func integerIfPresent<T: FixedWidthInteger>(_ type: T.Type) throws -> T? {
        try readIfPresent { try $0.integer($1, as: type, $2, $3) }
    }

    @inline(__always)
    private mutating func floatingPoint<T: BinaryFloatingPoint & LosslessStringConvertible>(_ type: T.Type) throws -> T {
        try read(type) { try $0.floatingPoint($1, as: type, $2, $3) }
    }

    @inline(__always)
    private mutating func floatingPointIfPresent<T: BinaryFloatingPoint & LosslessStringConvertible>(_ type: T.Type) throws -> T? {
        try readIfPresent { try $0.floatingPoint($1, as: type, $2, $3) }
    }
}
