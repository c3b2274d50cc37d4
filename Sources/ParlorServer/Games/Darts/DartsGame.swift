import Foundation
import ParlorRules
import ParlorWire

/// Darts matches on the kernel: 5-character codes from their own look-alike-free alphabet (`MatchCode`),
/// opaque UUID ids (a code is reused; the id names the match in history), the `match` event, and the
/// rules' own Codable form as the stored state, written by hand (`StoredMatchJSON`).
struct DartsGame: GameDefinition {
    typealias Rules = DartsMatch
    typealias Code = MatchCode

    static let kind = GameKind("darts", noun: "match", plural: "matches")
    /// Every move is public once the game is over: its record shows the actions.
    let recordsPublicActions = true

    let codeSpace: CodeSpace
    let maxGames: Int

    /// A random (version 4) UUID, as the seed's `matches.id` is.
    func newID(code: MatchCode) -> String { Self.randomUUID().rawValue }

    /// A fresh UUID from the system's CSPRNG (match ids, guests' ids).
    static func randomUUID() -> UserID {
        var generator = SystemRandomNumberGenerator()
        return UserID.random(using: &generator)
    }

    func id(of match: DartsMatch) -> String { match.id }
    func code(of match: DartsMatch) -> MatchCode { match.code }

    func parse(code: String) throws(WireError) -> MatchCode {
        do {
            return try MatchCode(validating: code)
        } catch {
            throw WireError(error)
        }
    }

    func notFound(code: MatchCode) -> WireError { WireError(DartsError.matchNotFound(code: code.rawValue)) }
    func notFound(id: String) -> WireError { WireError(.matchNotFound, "The match is over: everyone left it.") }
    func wireError(_ failure: DartsError) -> WireError { WireError(failure) }

    let publicEvent = EventName.match

    func encodePublicView(_ match: DartsMatch, at now: Instant) throws(WireError) -> EncodedJSON {
        EncodedJSON(matchView: MatchView(match))
    }

    static func storedJSON(_ match: DartsMatch) throws(StoreError) -> String {
        StoredMatchJSON.encode(match)
    }

    static func decodeStored(_ json: String) throws -> DartsMatch {
        try JSONDecoder().decode(DartsMatch.self, from: Data(json.utf8))
    }
}
