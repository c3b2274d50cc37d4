import NIOConcurrencyHelpers
import ParlorRules
import ParlorWire
import SystemTLS

/// Maps lobby ids to their actors, and lobby codes to lobby ids. Lock-protected rather than an actor, as
/// the room directory is: every operation starts with a lookup, and a lookup should not queue.
final class LobbyDirectory: Sendable {
    private enum CodeEntry {
        /// A code handed out to a lobby being created and not yet stored.
        case reserved
        case live(lobbyId: String)
    }

    private struct State {
        var lobbies: [String: LobbyActor] = [:]
        var codes: [LobbyCode: CodeEntry] = [:]
    }

    private let state = NIOLockedValueBox(State())
    private let codeSpace: CodeSpace
    private let maxLobbies: Int

    init(codeSpace: CodeSpace = .lobbyCodes, maxLobbies: Int) {
        self.codeSpace = codeSpace
        self.maxLobbies = maxLobbies
    }

    /// Live lobbies.
    var count: Int { state.withLockedValue { $0.lobbies.count } }

    var allLobbies: [LobbyActor] { state.withLockedValue { Array($0.lobbies.values) } }

    func lobby(id: String) -> LobbyActor? {
        state.withLockedValue { $0.lobbies[id] }
    }

    func lobbyID(code: LobbyCode) -> String? {
        state.withLockedValue { state in
            if case .live(let id) = state.codes[code] { return id }
            return nil
        }
    }

    /// A code unique among live lobbies (and those being created), reserved until `install` or `release`.
    /// `NO_FREE_CODE` (`resource-exhausted`) when the server is at its lobby limit or no code is free.
    func reserveCode() throws(WireError) -> LobbyCode {
        let result = state.withLockedValue { state -> Result<LobbyCode, WireError> in
            guard state.codes.count < maxLobbies else {
                return .failure(WireError(.noFreeCode, "The server is at its limit of \(maxLobbies) lobbies; try again later."))
            }
            var generator = SystemRandomNumberGenerator()
            do {
                let code = try LobbyCode.generate(in: codeSpace, using: &generator) { state.codes[$0] != nil }
                state.codes[code] = .reserved
                return .success(code)
            } catch {
                return .failure(WireError(LobbyError.resourceExhausted(.noFreeCode)))
            }
        }
        return try result.get()
    }

    func install(_ actor: LobbyActor) {
        state.withLockedValue { state in
            state.lobbies[actor.lobbyId] = actor
            state.codes[actor.code] = .live(lobbyId: actor.lobbyId)
        }
    }

    /// Frees a reserved code whose lobby was never created.
    func release(_ code: LobbyCode) {
        state.withLockedValue { state in
            if case .reserved = state.codes[code] { state.codes.removeValue(forKey: code) }
        }
    }

    /// Takes a deleted lobby out, freeing its code.
    func remove(_ actor: LobbyActor) {
        state.withLockedValue { state in
            guard state.lobbies[actor.lobbyId] === actor else { return }
            state.lobbies.removeValue(forKey: actor.lobbyId)
            if case .live(let id) = state.codes[actor.code], id == actor.lobbyId {
                state.codes.removeValue(forKey: actor.code)
            }
        }
    }

    /// A new lobby id: 20 URL-safe characters from the system CSPRNG (120 bits), in the spirit of a
    /// Firebase push id. Opaque: clients only echo it back.
    func newLobbyID() -> String {
        state.withLockedValue { state in
            while true {
                let id = Self.randomID()
                if state.lobbies[id] == nil { return id }
            }
        }
    }

    static let idLength = 20
    private static let idAlphabet = Array("-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz".utf8)

    static func randomID() -> String {
        let bytes = SecureRandom.bytes(count: idLength)
        return String(decoding: bytes.map { idAlphabet[Int($0 & 63)] }, as: UTF8.self)
    }
}
