import Foundation

/// Decodes `Decodable` values from a `JSONDocument`, as Foundation's `JSONDecoder` (default strategies)
/// decodes them from the same text: the same values, and the same `DecodingError`s with the same coding
/// paths, which `BadRequest` turns into sentences (`args.playerName is missing.`). Two deliberate
/// differences: a number that does not fit the integer type asked for is a `typeMismatch` at its path
/// (Foundation reports no path), and nothing here can meet malformed text, which the parser refused.
///
/// One instance serves a whole value: it is its own single-value container, and decoding a nested
/// value points it at that value for the duration (as Foundation's does), so only containers and
/// `superDecoder`s allocate.
@usableFromInline
final class DocumentDecoder {
    @usableFromInline let document: JSONDocument
    /// The value being decoded. (Only this decoder's own calls change these, one at a time, so the
    /// run-time exclusivity checks would only cost time.)
    @usableFromInline @exclusivity(unchecked) var value: Int
    @usableFromInline @exclusivity(unchecked) var pathNode: CodingPathNode

    @usableFromInline
    init(_ document: JSONDocument, value: Int = JSONDocument.root, path: CodingPathNode = .root) {
        self.document = document
        self.value = value
        pathNode = path
    }

    /// Runs `body` with this decoder pointed at `value`, at `path`.
    @usableFromInline
    func with<T>(value: Int, path: CodingPathNode, _ body: () throws -> T) rethrows -> T {
        let (savedValue, savedPath) = (self.value, pathNode)
        self.value = value
        pathNode = path
        defer { (self.value, pathNode) = (savedValue, savedPath) }
        return try body()
    }

    // MARK: Values, each as Foundation unwraps it

    /// `value` as `T`, at `path` followed by `key`.
    @usableFromInline
    func unwrap<T: Decodable>(_ value: Int, as type: T.Type, _ path: CodingPathNode, _ key: (any CodingKey)?) throws -> T {
        // Foundation's default strategies for the types it treats specially.
        if T.self == Date.self {
            try checkNotNull(value, Date.self, path, key)
        } else if T.self == Data.self, let data = try base64Data(value, path, key) as? T {
            return data
        } else if T.self == URL.self, let url = try url(value, path, key) as? T {
            return url
        } else if T.self == Decimal.self, let decimal = try decimal(value, path, key) as? T {
            return decimal
        }
        return try with(value: value, path: key.map { path.appending($0) } ?? path) { try T(from: self) }
    }

    func bool(_ value: Int, _ path: CodingPathNode, _ key: (any CodingKey)?) throws(DecodingError) -> Bool {
        // Foundation answers null given for a `Bool` as a mistyped value, not a missing one.
        switch document.kind(value) {
        case .true: return true
        case .false: return false
        default: throw typeMismatch(Bool.self, value, path, key)
        }
    }

    @usableFromInline
    func string(_ value: Int, _ path: CodingPathNode, _ key: (any CodingKey)?) throws(DecodingError) -> String {
        try checkNotNull(value, String.self, path, key)
        guard document.kind(value) == .string else { throw typeMismatch(String.self, value, path, key) }
        return document.text(value)
    }

    func integer<T: FixedWidthInteger>(
        _ value: Int, as type: T.Type, _ path: CodingPathNode, _ key: (any CodingKey)?
    ) throws(DecodingError) -> T {
        try number(value, as: type, path, key) { JSONNumber.integer($0, in: document, as: T.self) }
    }

    func floatingPoint<T: BinaryFloatingPoint & LosslessStringConvertible>(
        _ value: Int, as type: T.Type, _ path: CodingPathNode, _ key: (any CodingKey)?
    ) throws(DecodingError) -> T {
        try number(value, as: type, path, key) { JSONNumber.floatingPoint($0, in: document, as: T.self) }
    }

    /// A number node as `T`, by `convert`; one that does not fit is a type mismatch at its path.
    @inline(__always)
    private func number<T>(
        _ value: Int, as type: T.Type, _ path: CodingPathNode, _ key: (any CodingKey)?, _ convert: (JSONNode) -> T?
    ) throws(DecodingError) -> T {
        try checkNotNull(value, T.self, path, key)
        let node = document.nodes[value]
        guard node.kind == .integer || node.kind == .number else { throw typeMismatch(T.self, value, path, key) }
        guard let number = convert(node) else {
            throw DecodingError.typeMismatch(T.self, DecodingError.Context(
                codingPath: path.path(appending: key),
                debugDescription: "Parsed JSON number <\(document.numberText(value))> does not fit in \(T.self)."))
        }
        return number
    }

    private func base64Data(_ value: Int, _ path: CodingPathNode, _ key: (any CodingKey)?) throws -> Data {
        try checkNotNull(value, Data.self, path, key)
        guard document.kind(value) == .string else { throw typeMismatch(String.self, value, path, key) }
        guard let data = Data(base64Encoded: document.text(value)) else {
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: path.path(appending: key), debugDescription: "Encountered Data is not valid Base64."))
        }
        return data
    }

    private func url(_ value: Int, _ path: CodingPathNode, _ key: (any CodingKey)?) throws -> URL {
        try checkNotNull(value, URL.self, path, key)
        guard let url = URL(string: try string(value, path, key)) else {
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: path.path(appending: key), debugDescription: "Invalid URL string."))
        }
        return url
    }

    private func decimal(_ value: Int, _ path: CodingPathNode, _ key: (any CodingKey)?) throws -> Decimal {
        try checkNotNull(value, Decimal.self, path, key)
        guard document.kind(value) == .integer || document.kind(value) == .number else {
            throw DecodingError.typeMismatch(Decimal.self, DecodingError.Context(codingPath: path.path(appending: key), debugDescription: ""))
        }
        let text = document.numberText(value)
        guard let decimal = Decimal(string: text) else {
            throw DecodingError.typeMismatch(Decimal.self, DecodingError.Context(
                codingPath: path.path(appending: key), debugDescription: "Parsed JSON number <\(text)> does not fit in Decimal."))
        }
        return decimal
    }

    // MARK: Containers

    func keyedContainer<Key: CodingKey>(_ value: Int, at path: CodingPathNode, keyedBy: Key.Type) throws -> KeyedDecodingContainer<Key> {
        try requireObject(value, at: path)
        return KeyedDecodingContainer(DocumentKeyedContainer<Key>(decoder: self, object: value, path: path))
    }

    func unkeyedContainer(_ value: Int, at path: CodingPathNode) throws -> any UnkeyedDecodingContainer {
        switch document.kind(value) {
        case .array:
            return DocumentUnkeyedContainer(decoder: self, array: value, path: path)
        case .null:
            throw DecodingError.valueNotFound([Any].self, DecodingError.Context(
                codingPath: path.path, debugDescription: "Cannot get unkeyed decoding container -- found null value instead"))
        default:
            throw DecodingError.typeMismatch([Any].self, DecodingError.Context(
                codingPath: path.path, debugDescription: "Expected to decode \([Any].self) but found \(describe(value)) instead."))
        }
    }

    /// Fails as asking for a keyed container does when `value` is not an object.
    @usableFromInline
    func requireObject(_ value: Int, at path: CodingPathNode) throws {
        switch document.kind(value) {
        case .object:
            return
        case .null:
            throw DecodingError.valueNotFound([String: Any].self, DecodingError.Context(
                codingPath: path.path, debugDescription: "Cannot get keyed decoding container -- found null value instead"))
        default:
            throw DecodingError.typeMismatch([String: Any].self, DecodingError.Context(
                codingPath: path.path, debugDescription: "Expected to decode \([String: Any].self) but found \(describe(value)) instead."))
        }
    }

    // MARK: Errors

    private func checkNotNull(_ value: Int, _ type: Any.Type, _ path: CodingPathNode, _ key: (any CodingKey)?) throws(DecodingError) {
        guard document.kind(value) == .null else { return }
        throw DecodingError.valueNotFound(type, DecodingError.Context(
            codingPath: path.path(appending: key), debugDescription: "Cannot get value of type \(type) -- found null value instead"))
    }

    func typeMismatch(_ type: Any.Type, _ value: Int, _ path: CodingPathNode, _ key: (any CodingKey)?) -> DecodingError {
        DecodingError.typeMismatch(type, DecodingError.Context(
            codingPath: path.path(appending: key), debugDescription: "Expected to decode \(type) but found \(describe(value)) instead."))
    }

    private func describe(_ value: Int) -> String {
        switch document.kind(value) {
        case .string: "a string"
        case .integer, .number: "number"
        case .true, .false: "bool"
        case .null: "null"
        case .object: "a dictionary"
        case .array: "an array"
        }
    }
}

extension DocumentDecoder: Decoder, SingleValueDecodingContainer {
    @usableFromInline var codingPath: [any CodingKey] { pathNode.path }
    @usableFromInline var userInfo: [CodingUserInfoKey: Any] { [:] }

    @usableFromInline func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        try keyedContainer(value, at: pathNode, keyedBy: type)
    }

    @usableFromInline func unkeyedContainer() throws -> any UnkeyedDecodingContainer { try unkeyedContainer(value, at: pathNode) }

    @usableFromInline func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    @usableFromInline func decodeNil() -> Bool { document.kind(value) == .null }
    @usableFromInline func decode(_ type: Bool.Type) throws -> Bool { try bool(value, pathNode, nil) }
    @usableFromInline func decode(_ type: String.Type) throws -> String { try string(value, pathNode, nil) }
    @usableFromInline func decode(_ type: Double.Type) throws -> Double { try floatingPoint(value, as: type, pathNode, nil) }
    @usableFromInline func decode(_ type: Float.Type) throws -> Float { try floatingPoint(value, as: type, pathNode, nil) }
    @usableFromInline func decode(_ type: Int.Type) throws -> Int { try integer(value, as: type, pathNode, nil) }
    @usableFromInline func decode(_ type: Int8.Type) throws -> Int8 { try integer(value, as: type, pathNode, nil) }
    @usableFromInline func decode(_ type: Int16.Type) throws -> Int16 { try integer(value, as: type, pathNode, nil) }
    @usableFromInline func decode(_ type: Int32.Type) throws -> Int32 { try integer(value, as: type, pathNode, nil) }
    @usableFromInline func decode(_ type: Int64.Type) throws -> Int64 { try integer(value, as: type, pathNode, nil) }
    @usableFromInline func decode(_ type: Int128.Type) throws -> Int128 { try integer(value, as: type, pathNode, nil) }
    @usableFromInline func decode(_ type: UInt.Type) throws -> UInt { try integer(value, as: type, pathNode, nil) }
    @usableFromInline func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(value, as: type, pathNode, nil) }
    @usableFromInline func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(value, as: type, pathNode, nil) }
    @usableFromInline func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(value, as: type, pathNode, nil) }
    @usableFromInline func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(value, as: type, pathNode, nil) }
    @usableFromInline func decode(_ type: UInt128.Type) throws -> UInt128 { try integer(value, as: type, pathNode, nil) }
    @usableFromInline func decode<T: Decodable>(_ type: T.Type) throws -> T { try unwrap(value, as: type, pathNode, nil) }
}
