/// An object of a `JSONDocument`, read by key. Keys are found by comparing Swift strings (canonical
/// equivalence, as Foundation's dictionary of the keys compares them): in member order for small
/// objects, through the parser's key index for large ones, so a look-up is never a walk of thousands.
struct DocumentKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: DocumentDecoder
    let object: Int
    let pathNode: CodingPathNode

    init(decoder: DocumentDecoder, object: Int, path: CodingPathNode) {
        self.decoder = decoder
        self.object = object
        pathNode = path
    }

    var codingPath: [any CodingKey] { pathNode.path }

    var allKeys: [Key] {
        decoder.document.keyNodes(of: object).compactMap { Key(stringValue: decoder.document.text($0)) }
    }

    func contains(_ key: Key) -> Bool { member(key) != nil }

    private func member(_ key: Key) -> Int? { decoder.document.member(key.stringValue, of: object) }

    private func value(_ key: Key) throws -> Int {
        guard let value = member(key) else {
            throw DecodingError.keyNotFound(key, DecodingError.Context(
                codingPath: codingPath, debugDescription: "No value associated with key \(key) (\"\(key.stringValue)\")."))
        }
        return value
    }

    /// The member's value, or nil when it is absent or null (what `decodeIfPresent` answers nil for).
    private func presentValue(_ key: Key) -> Int? {
        guard let value = member(key), decoder.document.kind(value) != .null else { return nil }
        return value
    }

    func decodeNil(forKey key: Key) throws -> Bool { decoder.document.kind(try value(key)) == .null }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decoder.bool(try value(key), pathNode, key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try decoder.string(try value(key), pathNode, key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try floatingPoint(type, key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try floatingPoint(type, key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try integer(type, key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try integer(type, key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try integer(type, key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try integer(type, key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try integer(type, key) }
    func decode(_ type: Int128.Type, forKey key: Key) throws -> Int128 { try integer(type, key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try integer(type, key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try integer(type, key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try integer(type, key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try integer(type, key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try integer(type, key) }
    func decode(_ type: UInt128.Type, forKey key: Key) throws -> UInt128 { try integer(type, key) }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try decoder.unwrap(try value(key), as: type, pathNode, key)
    }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        try presentValue(key).map { try decoder.bool($0, pathNode, key) }
    }

    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        try presentValue(key).map { try decoder.string($0, pathNode, key) }
    }

    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try floatingPointIfPresent(type, key) }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { try floatingPointIfPresent(type, key) }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try integerIfPresent(type, key) }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try integerIfPresent(type, key) }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try integerIfPresent(type, key) }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try integerIfPresent(type, key) }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try integerIfPresent(type, key) }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try integerIfPresent(type, key) }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try integerIfPresent(type, key) }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { try integerIfPresent(type, key) }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { try integerIfPresent(type, key) }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try integerIfPresent(type, key) }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        try presentValue(key).map { try decoder.unwrap($0, as: type, pathNode, key) }
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try decoder.keyedContainer(try value(key), at: pathNode.appending(key), keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try decoder.unkeyedContainer(try value(key), at: pathNode.appending(key))
    }

    func superDecoder() throws -> any Decoder { decoder(for: JSONCodingKey.super, value: decoder.document.member("super", of: object)) }

    func superDecoder(forKey key: Key) throws -> any Decoder { decoder(for: key, value: member(key)) }

    /// A decoder of its own for a member; a missing member reads as null, as with Foundation.
    private func decoder(for key: some CodingKey, value: Int?) -> DocumentDecoder {
        DocumentDecoder(decoder.document, value: value ?? decoder.document.absent, path: pathNode.appending(key))
    }

    @inline(__always)
    private func integer<T: FixedWidthInteger>(_ type: T.Type, _ key: Key) throws -> T {
        try decoder.integer(try value(key), as: type, pathNode, key)
    }

    @inline(__always)
    private func integerIfPresent<T: FixedWidthInteger>(_ type: T.Type, _ key: Key) throws -> T? {
        try presentValue(key).map { try decoder.integer($0, as: type, pathNode, key) }
    }

    @inline(__always)
    private func floatingPoint<T: BinaryFloatingPoint & LosslessStringConvertible>(_ type: T.Type, _ key: Key) throws -> T {
        try decoder.floatingPoint(try value(key), as: type, pathNode, key)
    }

    @inline(__always)
    private func floatingPointIfPresent<T: BinaryFloatingPoint & LosslessStringConvertible>(_ type: T.Type, _ key: Key) throws -> T? {
        try presentValue(key).map { try decoder.floatingPoint($0, as: type, pathNode, key) }
    }
}
