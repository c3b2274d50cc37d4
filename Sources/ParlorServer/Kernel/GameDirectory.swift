import NIOConcurrencyHelpers
import ParlorRules
import ParlorWire

/// Maps the live games of one kind by id, and their codes to ids. Lock-protected rather than an actor:
/// every operation starts with a lookup, and a lookup should not queue behind other lookups.
final class GameDirectory<Code: ShortCode, Entry: AnyObject & Sendable>: Sendable {
    private enum CodeSlot {
        /// A code handed out to a game being created and not yet stored.
        case reserved
        case live(id: String)
    }

    private struct State {
        var games: [String: Entry] = [:]
        var codes: [Code: CodeSlot] = [:]
    }

    private let state = NIOLockedValueBox(State())
    private let codeSpace: CodeSpace
    private let maxGames: Int
    private let kind: GameKind

    init(codeSpace: CodeSpace, maxGames: Int, kind: GameKind) {
        self.codeSpace = codeSpace
        self.maxGames = maxGames
        self.kind = kind
    }

    /// Live games.
    var count: Int { state.withLockedValue { $0.games.count } }

    var all: [Entry] { state.withLockedValue { Array($0.games.values) } }

    func game(id: String) -> Entry? {
        state.withLockedValue { $0.games[id] }
    }

    func id(code: Code) -> String? {
        state.withLockedValue { state in
            if case .live(let id) = state.codes[code] { return id }
            return nil
        }
    }

    /// A code unique among live games (and those being created), reserved until `install` or
    /// `release`. `NO_FREE_CODE` when the server is at its limit or no code is free.
    func reserveCode() throws(WireError) -> Code {
        let (maxGames, kind, codeSpace) = (maxGames, kind, codeSpace)
        let result = state.withLockedValue { state -> Result<Code, WireError> in
            guard state.codes.count < maxGames else {
                return .failure(WireError(.noFreeCode, "The server is at its limit of \(maxGames) \(kind.plural); try again later."))
            }
            var generator = SystemRandomNumberGenerator()
            do {
                let code = try Code.generate(in: codeSpace, using: &generator) { state.codes[$0] != nil }
                state.codes[code] = .reserved
                return .success(code)
            } catch {
                return .failure(WireError(.noFreeCode, "No free \(kind.noun) code could be found; try again."))
            }
        }
        return try result.get()
    }

    /// An id from `make` that no live game has.
    func newID(_ make: () -> String) -> String {
        while true {
            let id = make()
            if state.withLockedValue({ $0.games[id] == nil }) { return id }
        }
    }

    func install(_ entry: Entry, id: String, code: Code) {
        state.withLockedValue { state in
            state.games[id] = entry
            state.codes[code] = .live(id: id)
        }
    }

    /// Installs a game another node created, found in the shared store, unless one with its id got
    /// here first (two operations naming it at once both load it): the entry that is in the directory.
    func adopt(_ entry: Entry, id: String, code: Code) -> (entry: Entry, installed: Bool) {
        state.withLockedValue { state in
            if let present = state.games[id] { return (present, false) }
            state.games[id] = entry
            state.codes[code] = .live(id: id)
            return (entry, true)
        }
    }

    /// Frees a code reserved for a game that was not created after all.
    func release(_ code: Code) {
        state.withLockedValue { state in
            if case .reserved = state.codes[code] { state.codes.removeValue(forKey: code) }
        }
    }

    /// Takes a deleted game out, freeing its code.
    func remove(_ entry: Entry, id: String, code: Code) {
        state.withLockedValue { state in
            guard state.games[id] === entry else { return }
            state.games.removeValue(forKey: id)
            if case .live(let liveID) = state.codes[code], liveID == id {
                state.codes.removeValue(forKey: code)
            }
        }
    }
}
