import Foundation

/// Everything a `Decodable` can learn from a decoder about one JSON value, written down line by line:
/// what each `decode` overload of each container answers (the value, or the error's kind, type and
/// coding path), `allKeys`, `contains`, `decodeNil`, nested containers, `superDecoder`s, an unkeyed
/// container's index as it moves, and what happens past its end. Decoding the same text into a
/// transcript through two decoders and comparing the transcripts compares the decoders.
struct DecoderTranscript: Decodable, Equatable {
    private(set) var lines: [String] = []

    init(from decoder: any Decoder) throws {
        lines.append("path \(Self.describe(decoder.codingPath))")
        let single = try decoder.singleValueContainer()
        lines.append("single nil \(single.decodeNil()) at \(Self.describe(single.codingPath))")
        for reading in Self.readings {
            record("single \(reading.name)", reading) { try reading.single(single) }
        }
        readKeyed(decoder)
        readUnkeyed(decoder)
    }

    private mutating func readKeyed(_ decoder: any Decoder) {
        let keyed: KeyedDecodingContainer<Key>
        do {
            keyed = try decoder.container(keyedBy: Key.self)
        } catch {
            lines.append("keyed: \(Self.describe(error))")
            return
        }
        let keys = keyed.allKeys.map(\.stringValue).sorted()
        lines.append("keys \(keys) at \(Self.describe(keyed.codingPath))")
        // Keys that are there, and some that may not be: spelled otherwise, or missing.
        for name in keys + ["missing", "a", "\u{E9}", "e\u{301}", "super"] {
            let key = Key(name)
            lines.append("contains \(name.debugDescription) \(keyed.contains(key))")
            record("decodeNil \(name.debugDescription)") { try keyed.decodeNil(forKey: key) }
            for reading in Self.readings {
                record("keyed \(name.debugDescription) \(reading.name)", reading) { try reading.keyed(keyed, key) }
                record("keyed \(name.debugDescription) \(reading.name)?", reading) { try reading.keyedIfPresent(keyed, key) }
            }
            record("nested \(name.debugDescription)") { try keyed.decode(DecoderTranscript.self, forKey: key).lines }
            record("nested? \(name.debugDescription)") { try keyed.decodeIfPresent(Glance.self, forKey: key)?.lines }
            record("super \(name.debugDescription)") { try Glance(from: keyed.superDecoder(forKey: key)).lines }
            record("nestedKeyed \(name.debugDescription)") {
                let nested = try keyed.nestedContainer(keyedBy: Key.self, forKey: key)
                return "\(nested.allKeys.map(\.stringValue).sorted()) at \(Self.describe(nested.codingPath))"
            }
            record("nestedUnkeyed \(name.debugDescription)") {
                let nested = try keyed.nestedUnkeyedContainer(forKey: key)
                return "\(nested.count ?? -1) at \(Self.describe(nested.codingPath))"
            }
        }
        record("super()") { try Glance(from: keyed.superDecoder()).lines }
    }

    private mutating func readUnkeyed(_ decoder: any Decoder) {
        var unkeyed: any UnkeyedDecodingContainer
        do {
            unkeyed = try decoder.unkeyedContainer()
        } catch {
            lines.append("unkeyed: \(Self.describe(error))")
            return
        }
        lines.append("count \(unkeyed.count ?? -1) at \(Self.describe(unkeyed.codingPath))")
        // Each element read every way, each from a copy of the container, then passed by reading it whole;
        // two more rounds past the end.
        for _ in 0..<((unkeyed.count ?? 0) + 2) {
            lines.append("index \(unkeyed.currentIndex) atEnd \(unkeyed.isAtEnd)")
            for reading in Self.readings {
                var copy = unkeyed
                record("element \(reading.name)", reading) { try reading.unkeyed(&copy) }
                lines.append("  then index \(copy.currentIndex)")
                copy = unkeyed
                record("element \(reading.name)?", reading) { try reading.unkeyedIfPresent(&copy) }
                lines.append("  then index \(copy.currentIndex)")
            }
            var copy = unkeyed
            record("element nil") { try copy.decodeNil() }
            lines.append("  then index \(copy.currentIndex)")
            copy = unkeyed
            record("element super") { try Glance(from: copy.superDecoder()).lines }
            copy = unkeyed
            record("element nestedKeyed") { try copy.nestedContainer(keyedBy: Key.self).allKeys.map(\.stringValue).sorted() }
            copy = unkeyed
            record("element nestedUnkeyed") { try copy.nestedUnkeyedContainer().count ?? -1 }
            record("element whole") { try unkeyed.decode(DecoderTranscript.self).lines }
        }
    }

    /// Writes down what `body` returns or throws. A dictionary is decoded in the order of its
    /// `allKeys`, which Foundation takes from a hashed dictionary (an order that changes from run to
    /// run), so when several members are wrong, which one fails first is not comparable: for those
    /// only that it failed is written.
    private mutating func record(_ what: String, _ reading: Reading? = nil, _ body: () throws -> Any?) {
        do {
            let value = try body()
            lines.append("\(what) = \(value.map { String(reflecting: $0) } ?? "nil")")
        } catch {
            lines.append("\(what) ! \(reading?.isDictionary == true ? "fails" : Self.describe(error))")
        }
    }

    /// Where a decoder is and what it holds, without going further in: for the second and third ways of
    /// reaching the same value (`superDecoder`, `decodeIfPresent`), so a transcript grows with the text,
    /// not with the number of ways down to each value.
    struct Glance: Decodable {
        private(set) var lines: [String] = []

        init(from decoder: any Decoder) throws {
            lines.append("path \(DecoderTranscript.describe(decoder.codingPath))")
            let single = try decoder.singleValueContainer()
            lines.append("nil \(single.decodeNil())")
            for reading in DecoderTranscript.readings where !reading.isDictionary {
                do {
                    lines.append("\(reading.name) = \(String(reflecting: try reading.single(single)))")
                } catch {
                    lines.append("\(reading.name) ! \(DecoderTranscript.describe(error))")
                }
            }
            lines.append("keys \((try? decoder.container(keyedBy: Key.self))?.allKeys.map(\.stringValue).sorted() ?? [])")
            lines.append("count \(String(describing: (try? decoder.unkeyedContainer())?.count))")
        }
    }

    // MARK: Readings

    /// One type read through every container.
    private struct Reading: Sendable {
        let name: String
        let single: @Sendable (any SingleValueDecodingContainer) throws -> Any
        let keyed: @Sendable (KeyedDecodingContainer<Key>, Key) throws -> Any
        let keyedIfPresent: @Sendable (KeyedDecodingContainer<Key>, Key) throws -> Any?
        let unkeyed: @Sendable (inout any UnkeyedDecodingContainer) throws -> Any
        let unkeyedIfPresent: @Sendable (inout any UnkeyedDecodingContainer) throws -> Any?
        var isDictionary: Bool { name.hasPrefix("generic Dictionary") }

        /// Through the overloads for this type.
        init(
            _ name: String, _ single: @escaping @Sendable (any SingleValueDecodingContainer) throws -> Any,
            _ keyed: @escaping @Sendable (KeyedDecodingContainer<Key>, Key) throws -> Any,
            _ keyedIfPresent: @escaping @Sendable (KeyedDecodingContainer<Key>, Key) throws -> Any?,
            _ unkeyed: @escaping @Sendable (inout any UnkeyedDecodingContainer) throws -> Any,
            _ unkeyedIfPresent: @escaping @Sendable (inout any UnkeyedDecodingContainer) throws -> Any?
        ) {
            (self.name, self.single, self.keyed, self.keyedIfPresent, self.unkeyed, self.unkeyedIfPresent) =
                (name, single, keyed, keyedIfPresent, unkeyed, unkeyedIfPresent)
        }

        /// Through the generic `decode<T>` of each container, which goes through `T.init(from:)` (or
        /// Foundation's special handling of `Data`, `Date`, `URL` and `Decimal`).
        init<T: Decodable & SendableMetatype>(generic type: T.Type) {
            self.init(
                "generic \(T.self)", { try $0.decode(T.self) }, { try $0.decode(T.self, forKey: $1) },
                { try $0.decodeIfPresent(T.self, forKey: $1) }, { try $0.decode(T.self) }, { try $0.decodeIfPresent(T.self) })
        }
    }

    /// Every overload of every container, then the generic entry points for the same types and for
    /// the types Foundation decodes specially.
    private static let readings: [Reading] = [
        Reading(
            "Bool", { try $0.decode(Bool.self) }, { try $0.decode(Bool.self, forKey: $1) }, { try $0.decodeIfPresent(Bool.self, forKey: $1) },
            { try $0.decode(Bool.self) }, { try $0.decodeIfPresent(Bool.self) }),
        Reading(
            "String", { try $0.decode(String.self) }, { try $0.decode(String.self, forKey: $1) }, { try $0.decodeIfPresent(String.self, forKey: $1) },
            { try $0.decode(String.self) }, { try $0.decodeIfPresent(String.self) }),
        Reading(
            "Double", { try $0.decode(Double.self) }, { try $0.decode(Double.self, forKey: $1) }, { try $0.decodeIfPresent(Double.self, forKey: $1) },
            { try $0.decode(Double.self) }, { try $0.decodeIfPresent(Double.self) }),
        Reading(
            "Float", { try $0.decode(Float.self) }, { try $0.decode(Float.self, forKey: $1) }, { try $0.decodeIfPresent(Float.self, forKey: $1) },
            { try $0.decode(Float.self) }, { try $0.decodeIfPresent(Float.self) }),
        Reading(
            "Int", { try $0.decode(Int.self) }, { try $0.decode(Int.self, forKey: $1) }, { try $0.decodeIfPresent(Int.self, forKey: $1) },
            { try $0.decode(Int.self) }, { try $0.decodeIfPresent(Int.self) }),
        Reading(
            "Int8", { try $0.decode(Int8.self) }, { try $0.decode(Int8.self, forKey: $1) }, { try $0.decodeIfPresent(Int8.self, forKey: $1) },
            { try $0.decode(Int8.self) }, { try $0.decodeIfPresent(Int8.self) }),
        Reading(
            "Int16", { try $0.decode(Int16.self) }, { try $0.decode(Int16.self, forKey: $1) }, { try $0.decodeIfPresent(Int16.self, forKey: $1) },
            { try $0.decode(Int16.self) }, { try $0.decodeIfPresent(Int16.self) }),
        Reading(
            "Int32", { try $0.decode(Int32.self) }, { try $0.decode(Int32.self, forKey: $1) }, { try $0.decodeIfPresent(Int32.self, forKey: $1) },
            { try $0.decode(Int32.self) }, { try $0.decodeIfPresent(Int32.self) }),
        Reading(
            "Int64", { try $0.decode(Int64.self) }, { try $0.decode(Int64.self, forKey: $1) }, { try $0.decodeIfPresent(Int64.self, forKey: $1) },
            { try $0.decode(Int64.self) }, { try $0.decodeIfPresent(Int64.self) }),
        Reading(
            "Int128", { try $0.decode(Int128.self) }, { try $0.decode(Int128.self, forKey: $1) }, { try $0.decodeIfPresent(Int128.self, forKey: $1) },
            { try $0.decode(Int128.self) }, { try $0.decodeIfPresent(Int128.self) }),
        Reading(
            "UInt", { try $0.decode(UInt.self) }, { try $0.decode(UInt.self, forKey: $1) }, { try $0.decodeIfPresent(UInt.self, forKey: $1) },
            { try $0.decode(UInt.self) }, { try $0.decodeIfPresent(UInt.self) }),
        Reading(
            "UInt8", { try $0.decode(UInt8.self) }, { try $0.decode(UInt8.self, forKey: $1) }, { try $0.decodeIfPresent(UInt8.self, forKey: $1) },
            { try $0.decode(UInt8.self) }, { try $0.decodeIfPresent(UInt8.self) }),
        Reading(
            "UInt16", { try $0.decode(UInt16.self) }, { try $0.decode(UInt16.self, forKey: $1) }, { try $0.decodeIfPresent(UInt16.self, forKey: $1) },
            { try $0.decode(UInt16.self) }, { try $0.decodeIfPresent(UInt16.self) }),
        Reading(
            "UInt32", { try $0.decode(UInt32.self) }, { try $0.decode(UInt32.self, forKey: $1) }, { try $0.decodeIfPresent(UInt32.self, forKey: $1) },
            { try $0.decode(UInt32.self) }, { try $0.decodeIfPresent(UInt32.self) }),
        Reading(
            "UInt64", { try $0.decode(UInt64.self) }, { try $0.decode(UInt64.self, forKey: $1) }, { try $0.decodeIfPresent(UInt64.self, forKey: $1) },
            { try $0.decode(UInt64.self) }, { try $0.decodeIfPresent(UInt64.self) }),
        Reading(
            "UInt128", { try $0.decode(UInt128.self) }, { try $0.decode(UInt128.self, forKey: $1) }, { try $0.decodeIfPresent(UInt128.self, forKey: $1) },
            { try $0.decode(UInt128.self) }, { try $0.decodeIfPresent(UInt128.self) }),
    ] + [
        Reading(generic: Bool.self), Reading(generic: String.self), Reading(generic: Double.self), Reading(generic: Float.self),
        Reading(generic: Int.self), Reading(generic: Int8.self), Reading(generic: Int64.self), Reading(generic: UInt64.self),
        Reading(generic: UInt8.self), Reading(generic: Int128.self), Reading(generic: Float16.self),
        Reading(generic: Data.self), Reading(generic: Date.self), Reading(generic: URL.self), Reading(generic: Decimal.self),
        Reading(generic: [Int].self), Reading(generic: [String: Int].self), Reading(generic: [Int: String].self),
        Reading(generic: Int?.self),
    ]

    // MARK: Descriptions

    struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }

        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    static func describe(_ path: [any CodingKey]) -> String {
        "[" + path.map { "\($0.stringValue.debugDescription)/\($0.intValue.map(String.init) ?? "-")" }.joined(separator: ", ") + "]"
    }

    /// An error's kind, type and path. A number that does not fit the type asked for is one line for both
    /// decoders: Foundation throws an internal error with no path, `DocumentDecoder` a `typeMismatch`
    /// at the value (on purpose: the path names the field).
    static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "number does not fit" }
        switch error {
        case .typeMismatch(_, let context) where context.debugDescription.hasPrefix("Parsed JSON number"):
            return "number does not fit"
        case .typeMismatch(let type, let context): return "typeMismatch \(type) at \(describe(context.codingPath))"
        case .valueNotFound(let type, let context): return "valueNotFound \(type) at \(describe(context.codingPath))"
        case .keyNotFound(let key, let context):
            return "keyNotFound \(key.stringValue.debugDescription) at \(describe(context.codingPath))"
        case .dataCorrupted(let context): return "dataCorrupted at \(describe(context.codingPath))"
        @unknown default: return "unknown"
        }
    }
}
