import ParlorRules

// A finished game's record, for every kind of game: `getGameRecord {code, from?, limit?}` and
// `GET /games/{code}/record?from=N&limit=M`.

extension Operation {
    /// One page of a finished game's record: how it began and each step after — who acted, when, the
    /// version it reached and the game as the asker saw it then (the public view, their own private
    /// view while they were a member, and the action when they saw it).
    public static let getGameRecord = OperationDeclaration<GameRecordArguments, GameRecordPage>(
        "getGameRecord",
        routes: [.get("/games/{code}/record") { request throws(WireError) in
            GameRecordArguments(code: request.parameters[0], from: try request.integer("from"), limit: try request.limit())
        }])
}

/// `getGameRecord {code, from?, limit?}`: steps `from`… (1 by default) of the finished game with `code`,
/// at most `limit` (`defaultLimit` by default, 1…`maxLimit`).
public struct GameRecordArguments: OperationArguments {
    public var code: String
    public var from: Int?
    public var limit: Int?

    public static let defaultLimit = 50
    public static let maxLimit = 200

    public init(code: String, from: Int? = nil, limit: Int? = nil) {
        self.code = code
        self.from = from
        self.limit = limit
    }

    /// `from` (at least 1) and `limit` (1…`maxLimit`), or `INVALID_INPUT` naming the bound.
    public func checkedPage() throws(WireError) -> (from: Int, limit: Int) {
        let from = from ?? 1
        guard from >= 1 else { throw WireError(.invalidInput, "from must be a step number of at least 1 (got \(from)).") }
        let limit = limit ?? Self.defaultLimit
        guard (1...Self.maxLimit).contains(limit) else {
            throw WireError(.invalidInput, "limit must be an integer from 1 to \(Self.maxLimit) (got \(limit)).")
        }
        return (from, limit)
    }
}

/// One page of a game's record.
public struct GameRecordPage: Sendable, Equatable, Decodable {
    /// One applied action and the game it left.
    public struct Step: Sendable, Equatable, Decodable {
        /// 1 for the first action after the game was created.
        public let step: Int
        /// Who acted; absent when it was the clock (a round's end).
        public let actor: UserID?
        /// The server's time of the action (ISO-8601).
        public let at: String
        /// The game's version after it.
        public let version: Int
        /// The game's public view after it: what every spectator was shown.
        public let view: JSONFragment
        /// The asker's own private view after it (a word match's own words), when they were a member of
        /// a game with private views at this step: what the game sent them alone.
        public let privateView: JSONFragment?
        /// The action as the game's rules received it, when the asker saw it: every action of a game
        /// whose moves are all public once finished (rummy, darts, tic-tac-toe), else their own alone.
        public let action: JSONFragment?
    }

    /// The game as it was created (on the first page only).
    public struct Initial: Sendable, Equatable, Decodable {
        public let version: Int
        public let view: JSONFragment
        /// The asker's own private view, as for a step.
        public let privateView: JSONFragment?
    }

    public let kind: String
    public let code: String
    public let createdAt: String
    public let finishedAt: String
    /// Steps in the whole record.
    public let stepCount: Int
    public let initial: Initial?
    public let steps: [Step]
    /// The `from` of the next page; absent on the last.
    public let nextFrom: Int?
}

/// Any JSON value, as a client reads a part of a reply whose shape depends on the game (a view).
public enum JSONFragment: Sendable, Equatable, Codable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONFragment])
    case object([String: JSONFragment])

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONFragment].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONFragment].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}
