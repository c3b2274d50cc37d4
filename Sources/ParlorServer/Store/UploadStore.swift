import ParlorRules

/// Games played elsewhere and uploaded (any kind that accepts them), and each player's lifetime of a
/// kind: its history and its uploads together.
public protocol UploadStore: Sendable {
    /// Every finished game of `kind` in `user`'s history, the server's and uploaded ones alike, as its
    /// tally for the player's lifetime totals.
    func lifetime(_ kind: GameKind, of user: UserID) async throws(StoreError) -> [LifetimeEntry]

    /// The uploaded game of `kind` with this id, if any.
    func uploadedGame(_ kind: GameKind, id: String) async throws(StoreError) -> UploadedGame?

    /// Stores `game`, durably, if the stored version is still the one the caller decided against:
    /// none when `replacing` is nil, else the one uploaded as of `replacing`. False (nothing written)
    /// when another upload got there first; the caller reads again and decides again.
    func saveUploadedGame(_ game: UploadedGame, replacing: Instant?) async throws(StoreError) -> Bool

    /// `user`'s uploaded games of `kind`, newest first, finished strictly before `before` when given;
    /// at most `limit` (at least one).
    func uploadedGames(_ kind: GameKind, of user: UserID, before: Instant?, limit: Int) async throws(StoreError) -> [UploadedGame]
}
