import Foundation
import ParlorRules
import ParlorWire
import SystemTLS

/// Word-game lobbies on the kernel: 4-letter codes and opaque ids, the public `lobby` event with the
/// server's clock, each member's `lobbyPrivate` event, rounds played from the catalog and judged
/// against the word list.
struct WordLobbyGame: GameDefinition {
    typealias Rules = WordLobby
    typealias Code = LobbyCode

    static let kind = GameKind("word-lobby", noun: "lobby", plural: "lobbies")

    let codeSpace: CodeSpace
    let maxGames: Int
    /// Players a lobby seats.
    let capacity: Int
    let wordList: SetWordList
    let catalog: CatalogService

    /// 20 URL-safe characters from the system CSPRNG (120 bits), in the spirit of a Firebase push id.
    /// Opaque: clients only echo it back.
    func newID(code: LobbyCode) -> String {
        String(decoding: SecureRandom.bytes(count: Self.idLength).map { Self.idAlphabet[Int($0 & 63)] }, as: UTF8.self)
    }

    static let idLength = 20
    private static let idAlphabet = Array("-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz".utf8)

    func id(of lobby: WordLobby) -> String { lobby.lobbyId }
    func code(of lobby: WordLobby) -> LobbyCode { lobby.lobbyCode }

    func parse(code: String) throws(WireError) -> LobbyCode {
        do {
            return try LobbyCode(validating: code)
        } catch {
            throw WireError(error)
        }
    }

    func notFound(code: LobbyCode) -> WireError { WireError(.lobbyNotFound, "No lobby has the code \(code).") }
    func notFound(id: String) -> WireError { WireError(LobbyError.notFound(.lobby(id))) }
    func wireError(_ failure: LobbyError) -> WireError { WireError(failure) }

    func environment() -> WordLobbyEnvironment {
        WordLobbyEnvironment(catalog: catalog.catalog, wordList: wordList)
    }

    let publicEvent = EventName.lobby
    let privateEvent: EventName? = .lobbyPrivate

    /// The public view with `serverTime`, the clock when this version was published, so a client can
    /// tell how far its own clock is from the one deadlines are kept on.
    func encodePublicView(_ lobby: WordLobby, at now: Instant) throws(WireError) -> EncodedJSON {
        try EncodedJSON.encoding(LobbyView(lobby, serverTime: now))
    }

    func encodePrivateView(_ view: LobbyPrivateView) throws(WireError) -> EncodedJSON {
        try EncodedJSON.encoding(PlayerWordsView(view))
    }

    static func storedJSON(_ lobby: WordLobby) throws(StoreError) -> String {
        try StoredJSON.encode(lobby, what: "lobby \(lobby.lobbyId)")
    }

    static func decodeStored(_ json: String) throws -> WordLobby {
        try JSONDecoder().decode(WordLobby.self, from: Data(json.utf8))
    }
}
