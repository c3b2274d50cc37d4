/// How to read one operation's arguments (`args` of a frame, `data` of a callable function's body)
/// into whatever the reader's user makes of them: the client's `Operation`, the server's prepared call.
public struct ArgumentsReader<Call>: Sendable {
    /// Reads arguments that are present and not null.
    public let read: @Sendable (any Decoder) throws -> Call
    /// What absent or null arguments mean, for operations whose arguments are all optional; nil when
    /// arguments are required.
    public let absent: (@Sendable () -> Call)?

    public init(read: @escaping @Sendable (any Decoder) throws -> Call, absent: (@Sendable () -> Call)? = nil) {
        self.read = read
        self.absent = absent
    }

    /// Reads `Arguments` and makes the call of them.
    public static func reading<Arguments: Decodable & Sendable>(
        _ type: Arguments.Type, _ make: @escaping @Sendable (Arguments) -> Call
    ) -> ArgumentsReader {
        ArgumentsReader(read: { make(try Arguments(from: $0)) })
    }

    /// Reads `Arguments`, whose fields are all optional, so the arguments may be left out.
    public static func reading<Arguments: Decodable & Sendable & DefaultArguments>(
        _ type: Arguments.Type, _ make: @escaping @Sendable (Arguments) -> Call
    ) -> ArgumentsReader {
        ArgumentsReader(read: { make(try Arguments(from: $0)) }, absent: { make(Arguments()) })
    }
}

/// The operations one name stands for. Usually one; an operation several games share (`startGame`)
/// has one per game, told apart by an argument only that game's form has (`roomCode`, `lobbyId`).
public enum ArgumentsChoice<Call>: Sendable {
    case one(ArgumentsReader<Call>)
    /// Exactly one of the keys must be present; `label` names the game in the error otherwise.
    case byKey([(key: String, label: String, reader: ArgumentsReader<Call>)])
}

extension ArgumentsChoice {
    /// Reads the arguments under `key` of `container`, failing with the decoding errors `BadRequest`
    /// turns into sentences (`args.playerName is missing.`).
    @inlinable
    func read<Key: CodingKey>(in container: KeyedDecodingContainer<Key>, forKey key: Key) throws -> Call {
        let present = container.contains(key) && !((try? container.decodeNil(forKey: key)) ?? false)
        switch self {
        case .one(let reader):
            if present { return try reader.read(try container.superDecoder(forKey: key)) }
            if let absent = reader.absent { return absent() }
            return try Self.missing(in: container, forKey: key)
        case .byKey(let choices):
            guard present else { return try Self.missing(in: container, forKey: key) }
            let decoder = try container.superDecoder(forKey: key)
            let fields = try decoder.container(keyedBy: AnyCodingKey.self)
            let claimed = choices.filter { fields.contains(AnyCodingKey($0.key)) }
            guard claimed.count == 1, let choice = claimed.first else {
                let options = choices.map { "\($0.key) (\($0.label))" }
                let list = options.count == 2 ? options.joined(separator: " or ")
                    : options.dropLast().joined(separator: ", ") + ", or " + (options.last ?? "")
                throw DecodingError.dataCorrupted(DecodingError.Context(
                    codingPath: fields.codingPath, debugDescription: "must have exactly one of \(list)"))
            }
            return try choice.reader.read(decoder)
        }
    }

    /// Fails as `decode(_:forKey:)` does for a required value: missing, or null.
    @inlinable
    static func missing<Key: CodingKey>(in container: KeyedDecodingContainer<Key>, forKey key: Key) throws -> Call {
        if container.contains(key) {
            throw DecodingError.valueNotFound(
                Call.self, DecodingError.Context(codingPath: container.codingPath + [key], debugDescription: "null"))
        }
        throw DecodingError.keyNotFound(key, DecodingError.Context(codingPath: container.codingPath, debugDescription: "missing"))
    }
}

/// A coding key for any field name.
@usableFromInline
struct AnyCodingKey: CodingKey {
    @usableFromInline let stringValue: String
    @usableFromInline var intValue: Int? { nil }

    @inlinable init(_ string: String) { stringValue = string }
    @inlinable init?(stringValue: String) { self.stringValue = stringValue }
    @inlinable init?(intValue: Int) { nil }
}
