import ParlorRules

/// The games beneath their actors: every live game of every kind, with its scheduled actions, and each
/// finished game filed in its players' history.
public protocol GameStore: Sendable {
    /// Every game of `kind` that was live when the server last stopped (or crashed).
    func loadGames(_ kind: GameKind) async throws(StoreError) -> [StoredGame]

    /// Makes this version of the game, and its scheduled actions, durable. When `game.archive` is set
    /// the game is also filed, as this version, in the history of the archive's players, in the same
    /// transaction (once: a second archive with the same key is ignored).
    nonisolated(nonsending) func saveGame(_ game: StoredGame) async throws(StoreError)

    /// The stored version of one live game; nil when there is none (it was deleted). What an actor
    /// reloads when another node saved the game first.
    func loadGame(_ kind: GameKind, id: String) async throws(StoreError) -> StoredGame?

    /// The stored live game of `kind` with this code, if any. What a node looks up when a client names
    /// a game it does not hold: another node may have created it.
    func loadGame(_ kind: GameKind, code: String) async throws(StoreError) -> StoredGame?

    /// Whether any of `users` was connected to another node that shares this store at `seenSince` or
    /// later (as the nodes report it). A store of one node's own answers false.
    func connectedElsewhere(_ users: [UserID], seenSince: Instant) async throws(StoreError) -> Bool

    /// Whether other nodes write to this store too, so a game this node does not hold may still exist.
    /// A store of one node's own answers no, and a code it does not know is simply not found.
    var sharedByNodes: Bool { get }

    /// Removes a live game (its last player left, or it expired). History is kept. With `version`, a
    /// store shared by nodes removes it only as of that version, and otherwise deletes nothing and
    /// throws `.conflict` (another node changed or deleted it); a store of one node's own ignores it.
    nonisolated(nonsending) func deleteGame(_ kind: GameKind, id: String, version: Int?) async throws(StoreError)

    /// The finished games of `kind` in `user`'s history, newest first, finished strictly before
    /// `before` when given; at most `limit` (at least one).
    func history(_ kind: GameKind, of user: UserID, before: Instant?, limit: Int) async throws(StoreError) -> [StoredState]
}

extension GameStore {
    /// One game, read through `loadGames`: for stores where one node is the only writer, which never
    /// report a conflict and so are never asked.
    public func loadGame(_ kind: GameKind, id: String) async throws(StoreError) -> StoredGame? {
        try await loadGames(kind).first { $0.id == id }
    }

    /// One game by code, read through `loadGames`, for the same stores: never asked, as they are not
    /// shared.
    public func loadGame(_ kind: GameKind, code: String) async throws(StoreError) -> StoredGame? {
        try await loadGames(kind).first { $0.code == code }
    }

    public var sharedByNodes: Bool { false }

    /// One node's own store: nobody is connected anywhere else.
    public func connectedElsewhere(_ users: [UserID], seenSince: Instant) async throws(StoreError) -> Bool { false }

    /// Removes a live game whatever its version.
    nonisolated(nonsending) func deleteGame(_ kind: GameKind, id: String) async throws(StoreError) {
        try await deleteGame(kind, id: id, version: nil)
    }
}
