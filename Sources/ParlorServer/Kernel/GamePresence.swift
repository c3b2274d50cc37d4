import NIOConcurrencyHelpers
import ParlorRules
import ParlorWire
import WebSocketCore

/// Who of each live game's members is connected, told on the game's own feed as a `presence` event
/// beside its versions: one mechanism for every kind, kept by each kind's host.
///
/// It follows `Presence`'s settling, so a game's presence costs what friends' presence costs: a member
/// is shown online while connected or within the grace after their last connection closed, a
/// connection that drops and comes back within the grace changes nothing and sends nothing, and a
/// settle that changes several members of one game publishes to it once. A game is published to only
/// when what it shows changes: when it starts (so its first subscribers get it), when its members
/// change, and when a member's settled status does. It is not a version of the game: nothing is saved
/// and `version` does not move.
final class GamePresence: Sendable {
    private struct Game {
        let feed: Feed
        var members: [UserID]
        /// Whether each member was shown online in the last publication.
        var shown: [Bool]
        var sequence: Int
    }

    private struct State {
        /// By game id.
        var games: [String: Game] = [:]
        /// The games each user is a member of, by id.
        var gamesOf: [UserID: Set<String>] = [:]
    }

    private let state = NIOLockedValueBox(State())
    private let presence: Presence

    init(presence: Presence) {
        self.presence = presence
        presence.onSettle { [weak self] users in self?.refresh(users) }
    }

    /// Game `id` (published on `feed`) now has `members`: a created or restored game, or a version that
    /// seated or unseated someone. Publishes when the game is new or its members changed.
    func track(_ id: String, feed: Feed, members: [UserID]) {
        let publication = state.withLockedValue { state -> FeedPresence? in
            let known = state.games[id]
            let before = known?.members ?? []
            guard known == nil || before != members else { return nil }
            for user in before where !members.contains(user) { Self.unindex(user, from: id, in: &state) }
            for user in members where !before.contains(user) { state.gamesOf[user, default: []].insert(id) }
            var game = known ?? Game(feed: feed, members: [], shown: [], sequence: 0)
            game.members = members
            let published = publish(&game)
            state.games[id] = game
            return published
        }
        if let publication { feed.publish(publication) }
    }

    /// Game `id` is gone.
    func untrack(_ id: String) {
        state.withLockedValue { state in
            guard let game = state.games.removeValue(forKey: id) else { return }
            for user in game.members { Self.unindex(user, from: id, in: &state) }
        }
    }

    /// Games tracked (for tests).
    var trackedGames: Int { state.withLockedValue { $0.games.count } }

    /// A settle looked at `users`: every game of theirs whose shown presence changed is published to
    /// once.
    private func refresh(_ users: [UserID]) {
        let publications = state.withLockedValue { state -> [(Feed, FeedPresence)] in
            var ids: Set<String> = []
            for user in users {
                if let games = state.gamesOf[user] { ids.formUnion(games) }
            }
            var publications: [(Feed, FeedPresence)] = []
            for id in ids {
                guard var game = state.games[id] else { continue }
                let shown = presence.shownOnline(game.members)
                guard shown != game.shown else { continue }
                publications.append((game.feed, publish(&game, shown: shown)))
                state.games[id] = game
            }
            return publications
        }
        for (feed, publication) in publications { feed.publish(publication) }
    }

    /// The next publication of `game`, with its members shown as `shown` (looked up when nil).
    private func publish(_ game: inout Game, shown: [Bool]? = nil) -> FeedPresence {
        game.shown = shown ?? presence.shownOnline(game.members)
        game.sequence += 1
        let view = PresenceView(players: zip(game.members, game.shown).map { PresenceView.Player(userId: $0, online: $1) })
        let frame = EventMessage.frame(subscription: game.feed.topic, event: .presence, data: view.encoded)
        return FeedPresence(sequence: game.sequence, frame: PreparedMessage(json: frame))
    }

    private static func unindex(_ user: UserID, from id: String, in state: inout State) {
        state.gamesOf[user]?.remove(id)
        if state.gamesOf[user]?.isEmpty == true { state.gamesOf.removeValue(forKey: user) }
    }
}
