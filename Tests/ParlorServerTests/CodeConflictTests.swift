import NIOConcurrencyHelpers
import ParlorRules
import ParlorTestSupport
import Testing
@testable import ParlorServer

/// A code another node already gave out: the shared database refuses the new game as a conflict, and
/// the server picks another code instead of failing the player.
@Suite struct CodeConflictTests {
    @Test func aNewRoomWhoseCodeIsTakenElsewhereGetsAnotherCode() async throws {
        let store = CodeTakenStore(takenTimes: 2)
        try await withParlor(store: store) { parlor in
            try await parlor.connect { host in
                let created = try await host.call("createRoom", ["pointLimit": 350, "pointValue": 10, "playerCount": 2, "playerName": "Host"])
                let code = try #require((created.result?["room"] as? [String: Any])?["id"] as? String, "\(created)")
                #expect(store.refused.count == 2 && !store.refused.contains(code), "\(store.refused) then \(code)")
                #expect(try await host.call("getRoom", ["code": code]).result?["id"] as? String == code)
            }
        }
    }

    @Test func aCodeTakenEveryTimeFailsTheCreationAndHoldsNothing() async throws {
        let store = CodeTakenStore(takenTimes: 100)
        try await withParlor(store: store) { parlor in
            try await parlor.connect { host in
                let created = try await host.call("createRoom", ["pointLimit": 350, "pointValue": 10, "playerCount": 2, "playerName": "Host"])
                #expect(created.errorCode == "INTERNAL", "\(created)")
                #expect(store.refused.count == GameHost<RummyGame>.maxCodeAttempts)
                #expect(parlor.services.games.allSatisfy { $0.count == 0 })
            }
        }
    }
}

/// Refuses the first `takenTimes` new games as a shared database does when another node holds their code.
final class CodeTakenStore: ForwardingStore {
    let base = InMemoryStore()
    var forwardee: InMemoryStore { base }
    private let state: NIOLockedValueBox<(left: Int, refused: [String])>

    init(takenTimes: Int) {
        state = NIOLockedValueBox((takenTimes, []))
    }

    /// The codes refused so far, in order.
    var refused: [String] { state.withLockedValue { $0.refused } }

    func saveGame(_ game: StoredGame) async throws(StoreError) {
        if game.replacing == .nothing {
            let taken = state.withLockedValue { state -> Bool in
                guard state.left > 0 else { return false }
                state.left -= 1
                state.refused.append(game.code)
                return true
            }
            if taken { throw StoreError(.conflict, "code \(game.code) is taken (test)") }
        }
        try await base.saveGame(game)
    }

    func serverSecret() async throws(StoreError) -> [UInt8] { try await base.serverSecret() }
    func loadGames(_ kind: GameKind) async throws(StoreError) -> [StoredGame] { try await base.loadGames(kind) }
    func deleteGame(_ kind: GameKind, id: String, version: Int?) async throws(StoreError) { try await base.deleteGame(kind, id: id, version: version) }
    func history(_ kind: GameKind, of user: UserID, before: Instant?, limit: Int) async throws(StoreError) -> [StoredState] {
        try await base.history(kind, of: user, before: before, limit: limit)
    }
    func checkWritable() async throws(StoreError) {}
    func close() async { await base.close() }
}
