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
    /// Reads the arguments that are member `key` of the object `decoder` is at (`args` of a frame,
    /// `data` of a callable function's body), failing with the decoding errors `BadRequest` turns into
    /// sentences (`args.playerName is missing.`).
    @inlinable
    func read<Key: CodingKey>(member key: Key, in decoder: DocumentDecoder) throws -> Call {
        let document = decoder.document
        let value = document.member(key.stringValue, of: decoder.value)
        let path = decoder.pathNode.appending(key)
        switch self {
        case .one(let reader):
            if let value, document.kind(value) != .null {
                return try decoder.with(value: value, path: path) { try reader.read(decoder) }
            }
            if let absent = reader.absent { return absent() }
            throw Self.missing(key, at: decoder.pathNode, isNull: value != nil)
        case .byKey(let choices):
            guard let value, document.kind(value) != .null else { throw Self.missing(key, at: decoder.pathNode, isNull: value != nil) }
            try decoder.requireObject(value, at: path)
            let claimed = choices.filter { document.member($0.key, of: value) != nil }
            guard claimed.count == 1, let choice = claimed.first else {
                let options = choices.map { "\($0.key) (\($0.label))" }
                let list = options.count == 2 ? options.joined(separator: " or ")
                    : options.dropLast().joined(separator: ", ") + ", or " + (options.last ?? "")
                throw DecodingError.dataCorrupted(DecodingError.Context(
                    codingPath: path.path, debugDescription: "must have exactly one of \(list)"))
            }
            return try decoder.with(value: value, path: path) { try choice.reader.read(decoder) }
        }
    }

    /// How `decode(_:forKey:)` fails for a required value: missing, or null.
    @inlinable
    static func missing<Key: CodingKey>(_ key: Key, at path: CodingPathNode, isNull: Bool) -> DecodingError {
        if isNull {
            return .valueNotFound(Call.self, DecodingError.Context(codingPath: path.path(appending: key), debugDescription: "null"))
        }
        return .keyNotFound(key, DecodingError.Context(codingPath: path.path, debugDescription: "missing"))
    }
}
