import Foundation
import ParlorTestSupport
import NIOConcurrencyHelpers
import ParlorRules
import Testing
@testable import ParlorServer

/// Shared set-up for the word lobby tests: a small word list, profiles, and helpers that drive lobbies
/// over the wire.
enum LobbyFixture {
    /// Enough real words to play "Starts with S" (the starter catalog's first game).
    static let words = SetWordList([
        "sapphire", "salt", "sun", "sea", "sand", "snow", "star", "stone", "swan", "silk", "bread", "banana",
    ])

    static func configure(_ configuration: inout ServerConfiguration) {
        configuration.wordGames.wordList = .words(words)
        configuration.wordGames.catalogPollInterval = nil
    }

    static func user(_ name: String, color: Int = 3, emoji: Int = 7) -> [String: Any] {
        ["username": name, "colorNumber": color, "emojiNumber": emoji]
    }

    /// Creates a lobby as `host`; returns its id and code.
    static func create(_ host: JSONConnection, name: String = "Ann") async throws -> (id: String, code: String) {
        let reply = try await host.call("createLobby", ["user": user(name)])
        let result = try #require(reply.result, "createLobby failed: \(reply)")
        return (try #require(result["lobbyId"] as? String), try #require(result["lobbyCode"] as? String))
    }

    /// Creates a lobby as `host` and seats `guests`; returns its id and code.
    static func seat(_ host: JSONConnection, _ guests: [JSONConnection]) async throws -> (id: String, code: String) {
        let lobby = try await create(host)
        for (index, guest) in guests.enumerated() {
            let joined = try await guest.call("joinLobby", ["lobbyCode": lobby.code, "user": user("Guest\(index + 1)")])
            #expect(joined.result?["lobbyId"] as? String == lobby.id, "joinLobby failed: \(joined)")
        }
        return lobby
    }

    static func observe(_ client: JSONConnection, _ lobbyId: String) async throws -> Int {
        let reply = try await client.call("observeLobby", ["lobbyId": lobbyId])
        return try #require(reply.result?["subscription"] as? Int, "observeLobby failed: \(reply)")
    }

    static func submit(_ client: JSONConnection, _ lobbyId: String, _ word: String) async throws -> [String: Any] {
        let reply = try await client.call("submitWord", ["lobbyId": lobbyId, "word": word])
        return try #require(reply.result, "submitWord \(word) failed: \(reply)")
    }
}

/// Every event one connection reads from a lobby subscription, kept so a test can check what reached it.
final class LobbyEventLog {
    private(set) var frames: [[String: Any]] = []

    /// Reads events of `sub` until a `lobby` event whose data satisfies `predicate`; returns that data.
    func nextLobby(
        _ client: JSONConnection, sub: Int, timeout: Duration = .seconds(5), where predicate: ([String: Any]) -> Bool
    ) async throws -> [String: Any] {
        while true {
            let frame = try await client.nextEvent(sub: sub, timeout: timeout)
            frames.append(frame)
            if frame["event"] as? String == "lobby", let data = frame["data"] as? [String: Any], predicate(data) {
                return data
            }
        }
    }

    /// Reads events of `sub` until a `lobbyPrivate` event whose data satisfies `predicate`; returns that data.
    func nextPrivate(
        _ client: JSONConnection, sub: Int, timeout: Duration = .seconds(5), where predicate: ([String: Any]) -> Bool
    ) async throws -> [String: Any] {
        while true {
            let frame = try await client.nextEvent(sub: sub, timeout: timeout)
            frames.append(frame)
            if frame["event"] as? String == "lobbyPrivate", let data = frame["data"] as? [String: Any], predicate(data) {
                return data
            }
        }
    }

    /// The frames as the JSON text they arrived as (keys re-serialised in sorted order).
    var texts: [String] {
        frames.map { String(decoding: (try? JSONSerialization.data(withJSONObject: $0, options: [.sortedKeys])) ?? Data(), as: UTF8.self) }
    }
}

extension Dictionary where Key == String, Value == Any {
    var status: String? { self["status"] as? String }
    var roundNumber: Int? { (self["round"] as? [String: Any])?["number"] as? Int }
    var lastRoundNumber: Int? { (self["lastRound"] as? [String: Any])?["number"] as? Int }
    var version: Int? { self["version"] as? Int }
    var words: [[String: Any]] { self["words"] as? [[String: Any]] ?? [] }
}

/// A store that can be told to fail (lobby writes, and the health probe; or uploaded matches' saves),
/// to reach `internal` over the wire.
final class FailingStore: ForwardingStore {
    /// What saving an uploaded match does instead, when set.
    enum UploadFault {
        /// Throws, as a full disk does.
        case diskFull
        /// Writes nothing and says another upload of the same id got there first, every time.
        case alwaysRaced
    }

    let base = InMemoryStore()
    var forwardee: InMemoryStore { base }
    private let failing = NIOLockedValueBox(false)
    private let uploads = NIOLockedValueBox<UploadFault?>(nil)

    var uploadFault: UploadFault? {
        get { uploads.withLockedValue { $0 } }
        set { uploads.withLockedValue { $0 = newValue } }
    }

    var failsLobbyWrites: Bool {
        get { failing.withLockedValue { $0 } }
        set { failing.withLockedValue { $0 = newValue } }
    }

    private func check() throws(StoreError) {
        if failsLobbyWrites { throw StoreError(.diskFull, "disk full (test)") }
    }

    func serverSecret() async throws(StoreError) -> [UInt8] { try await base.serverSecret() }
    func loadGames(_ kind: GameKind) async throws(StoreError) -> [StoredGame] { try await base.loadGames(kind) }
    func saveGame(_ game: StoredGame) async throws(StoreError) {
        if game.kind == WordLobbyGame.kind { try check() }
        try await base.saveGame(game)
    }
    func deleteGame(_ kind: GameKind, id: String, version: Int?) async throws(StoreError) {
        if kind == WordLobbyGame.kind { try check() }
        try await base.deleteGame(kind, id: id, version: version)
    }
    func history(_ kind: GameKind, of user: UserID, before: Instant?, limit: Int) async throws(StoreError) -> [StoredState] {
        try await base.history(kind, of: user, before: before, limit: limit)
    }
    func saveUploadedGame(_ game: UploadedGame, replacing: Instant?) async throws(StoreError) -> Bool {
        switch uploadFault {
        case .diskFull?: throw StoreError(.diskFull, "disk full (test)")
        case .alwaysRaced?: return false
        case nil: return try await base.saveUploadedGame(game, replacing: replacing)
        }
    }
    func checkWritable() async throws(StoreError) { try check() }
    func close() async { await base.close() }
}
