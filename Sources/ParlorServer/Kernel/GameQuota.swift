import NIOConcurrencyHelpers
import ParlorRules
import ParlorWire

/// How many live games each user owns, across every kind of game, so that one user cannot fill the
/// server: creating one more than `limit` fails with `QUOTA_EXCEEDED`.
///
/// A game counts against its rules' `owner` (the creator, or whoever the game passed to when they
/// left; nobody once it is finished). The kernel counts a game when it is created or restored and
/// uncounts it when it is deleted (left, expired). Ownership changes and finishing happen inside a
/// game's reducer, where the kernel does not watch; so the count is an upper bound, and a user who
/// reaches the limit has their games asked, once, whether each still counts for them before they are
/// refused. That costs a few actor calls only at the limit, and nothing on the path of an action.
final class GameQuota: Sendable {
    let limit: Int

    private struct State {
        /// Each owner's counted games, by the identity of their actors.
        var owned: [UserID: [ObjectIdentifier: any QuotaCountedGame]] = [:]
        /// Games being created (reserved, not yet stored), per owner.
        var pending: [UserID: Int] = [:]
        /// Who each counted game is counted against.
        var owners: [ObjectIdentifier: UserID] = [:]
    }

    private let state = NIOLockedValueBox(State())

    init(limit: Int) {
        self.limit = limit
    }

    /// A place for one more game of `owner`'s, held while the game is created; `fill` or `cancel` it.
    struct Reservation: Sendable {
        fileprivate let owner: UserID?
    }

    /// Reserves a place for a new game of `owner`'s (nil: a game that counts for nobody).
    func reserve(for owner: UserID?) async throws(WireError) -> Reservation {
        guard let owner else { return Reservation(owner: nil) }
        if tryReserve(owner) { return Reservation(owner: owner) }
        // At the limit by the count: some of those games may have finished or passed to someone else.
        let counted = state.withLockedValue { Array(($0.owned[owner] ?? [:]).values) }
        for game in counted where await !game.counts(for: owner) {
            uncount(game)
        }
        guard tryReserve(owner) else {
            throw WireError(
                .quotaExceeded,
                "You already have \(limit) live games, the most one player may have at once; leave or finish one first.")
        }
        return Reservation(owner: owner)
    }

    /// The reserved game exists: count it.
    func fill(_ reservation: Reservation, with game: any QuotaCountedGame) {
        guard let owner = reservation.owner else { return }
        state.withLockedValue { state in
            Self.releasePending(owner, in: &state)
            state.owned[owner, default: [:]][ObjectIdentifier(game)] = game
            state.owners[ObjectIdentifier(game)] = owner
        }
    }

    /// The reserved game was not created after all.
    func cancel(_ reservation: Reservation) {
        guard let owner = reservation.owner else { return }
        state.withLockedValue { Self.releasePending(owner, in: &$0) }
    }

    /// Counts a game brought back at start-up, whatever the limit: it already existed.
    func count(_ game: any QuotaCountedGame, owner: UserID?) {
        guard let owner else { return }
        state.withLockedValue { state in
            state.owned[owner, default: [:]][ObjectIdentifier(game)] = game
            state.owners[ObjectIdentifier(game)] = owner
        }
    }

    /// A game is gone (deleted or expired), or no longer counts for its owner.
    func uncount(_ game: any QuotaCountedGame) {
        let id = ObjectIdentifier(game)
        state.withLockedValue { state in
            guard let owner = state.owners.removeValue(forKey: id) else { return }
            state.owned[owner]?.removeValue(forKey: id)
            if state.owned[owner]?.isEmpty == true { state.owned.removeValue(forKey: owner) }
        }
    }

    /// Games counted against `owner` now (with those being created).
    func count(of owner: UserID) -> Int {
        state.withLockedValue { ($0.owned[owner]?.count ?? 0) + ($0.pending[owner] ?? 0) }
    }

    /// Users with at least one counted game: the table holds no one else.
    var ownerCount: Int { state.withLockedValue { $0.owned.count } }

    private func tryReserve(_ owner: UserID) -> Bool {
        let limit = limit
        return state.withLockedValue { state in
            guard (state.owned[owner]?.count ?? 0) + (state.pending[owner] ?? 0) < limit else { return false }
            state.pending[owner, default: 0] += 1
            return true
        }
    }

    private static func releasePending(_ owner: UserID, in state: inout State) {
        guard let pending = state.pending[owner] else { return }
        state.pending[owner] = pending > 1 ? pending - 1 : nil
    }
}

/// A live game as the quota sees it: it can say whether it still counts against a user.
protocol QuotaCountedGame: AnyObject, Sendable {
    func counts(for owner: UserID) async -> Bool
}

extension GameActor: QuotaCountedGame {
    /// Still live and still `owner`'s (not finished, not passed to someone else).
    /// The copy this node holds, as it is: counting is this node's own affair, not worth a read.
    func counts(for owner: UserID) -> Bool {
        !isDeleted && state.owner == owner
    }
}
