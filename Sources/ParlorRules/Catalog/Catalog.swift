/// The catalog of games: `{"version": 3, "updatedAt": "2026-01-30T00:00:00.000Z", "gameModes": […]}`.
///
/// `version` rises whenever the catalog changes, so a client that already has it can ask for
/// "anything newer than N". `updatedAt` is ISO-8601 in JSON.
public struct Catalog: Sendable, Equatable, Codable {
    public var version: Int
    public var updatedAt: Instant
    public var gameModes: [GameMode]

    public init(version: Int, updatedAt: Instant, gameModes: [GameMode]) {
        self.version = version
        self.updatedAt = updatedAt
        self.gameModes = gameModes
    }

    /// Every game in document order (modes, then their levels, then their games): the order in which
    /// a lobby plays "the next game of the catalog".
    public var playOrder: [Game] {
        gameModes.flatMap { $0.levels.flatMap(\.games) }
    }

    public func game(withID id: String) -> Game? {
        for mode in gameModes {
            for level in mode.levels {
                if let game = level.games.first(where: { $0.id == id }) { return game }
            }
        }
        return nil
    }

    private enum CodingKeys: String, CodingKey { case version, updatedAt, gameModes }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        version = try container.decode(Int.self, forKey: .version)
        let text = try container.decode(String.self, forKey: .updatedAt)
        guard let instant = Instant(iso8601: text) else {
            throw DecodingError.dataCorruptedError(
                forKey: .updatedAt, in: container, debugDescription: "is not an ISO-8601 timestamp")
        }
        updatedAt = instant
        gameModes = try container.decode([GameMode].self, forKey: .gameModes)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(version, forKey: .version)
        try container.encode(updatedAt.iso8601, forKey: .updatedAt)
        try container.encode(gameModes, forKey: .gameModes)
    }
}
