import Logging
import NIOConcurrencyHelpers
import ParlorRules
import ParlorWire
import WebSocketCore

/// Each observed user's friends list as a live feed (`observeFriends`): the whole list, at a version,
/// again whenever a request arrives or is answered or withdrawn, a friend changes their profile, or a
/// friend's settled presence changes.
///
/// One feed per user, shared by all their connections. The rows and the other sides' profiles are kept
/// while someone observes, so a friend coming online costs re-encoding the list, not a store read; a
/// change to the rows reads them again. A feed nobody has observed for `idleSeconds` is let go.
final class FriendsFeeds: Sendable {
    private struct Entry {
        let feed: Feed
        var version = 0
        /// Requests both ways and friendships, oldest first (rejected requests are not shown).
        var rows: [FriendshipRecord]
        var profiles: [UserID: ProfileRecord]
        /// Bumped by every reload, so a slower reload never replaces a newer one.
        var generation = 0
        var lastGrant: Instant
    }

    private struct State {
        var entries: [UserID: Entry] = [:]
        /// For each user, the observers whose lists show them.
        var watchers: [UserID: Set<UserID>] = [:]
        var lastSweep: Instant
    }

    private let store: any ParlorStore
    private let presence: Presence
    private let clock: any ParlorClock
    private let logger: Logger
    private let state: NIOLockedValueBox<State>

    /// A feed nobody observes is kept this long after its last subscription began, then let go.
    static let idleSeconds: Int64 = 60

    init(store: any ParlorStore, presence: Presence, clock: any ParlorClock, logger: Logger) {
        self.store = store
        self.presence = presence
        self.clock = clock
        self.logger = logger
        state = NIOLockedValueBox(State(lastSweep: clock.now))
    }

    /// Permission to observe `user`'s list; its current version is sent first.
    func grant(for user: UserID) async throws(WireError) -> FeedGrant {
        sweepIfDue()
        if let grant = existingGrant(for: user) { return grant }
        let (rows, profiles) = try await load(user)
        let now = clock.now
        let (grant, created) = state.withLockedValue { state -> (FeedGrant?, Bool) in
            if let entry = state.entries[user], let grant = entry.feed.grant(user: user) {
                state.entries[user]?.lastGrant = now
                return (grant, false)
            }
            let entry = Entry(feed: Feed(), rows: rows, profiles: profiles, lastGrant: now)
            state.entries[user] = entry
            Self.watch(user, rows: rows, in: &state)
            return (entry.feed.grant(user: user), true)
        }
        if created { publish(user) }
        guard let grant else { throw WireError.internalError("Your friends list could not be opened; try again.") }
        return grant
    }

    private func existingGrant(for user: UserID) -> FeedGrant? {
        let now = clock.now
        return state.withLockedValue { state in
            guard let grant = state.entries[user]?.feed.grant(user: user) else { return nil }
            state.entries[user]?.lastGrant = now
            return grant
        }
    }

    /// The rows of `users` changed (a request made, answered or withdrawn): their lists are read again.
    func refresh(_ users: [UserID]) async {
        for user in Set(users) {
            let generation = state.withLockedValue { state -> Int? in
                guard state.entries[user] != nil else { return nil }
                state.entries[user]?.generation += 1
                return state.entries[user]?.generation
            }
            guard let generation else { continue }
            let loaded: ([FriendshipRecord], [UserID: ProfileRecord])
            do {
                loaded = try await load(user)
            } catch {
                logger.warning("Friends list not refreshed", metadata: ["user": "\(user)", "error": "\(error.message)"])
                continue
            }
            let current = state.withLockedValue { state -> Bool in
                guard let entry = state.entries[user], entry.generation == generation else { return false }
                Self.unwatch(user, rows: entry.rows, in: &state)
                state.entries[user]?.rows = loaded.0
                state.entries[user]?.profiles = loaded.1
                Self.watch(user, rows: loaded.0, in: &state)
                return true
            }
            if current { publish(user) }
        }
    }

    /// `user` changed their profile: the lists that show them are read again.
    func profileChanged(_ user: UserID) async {
        await refresh(Array(state.withLockedValue { $0.watchers[user] ?? [] }))
    }

    /// Friends' settled presence changed: every list that shows one of them as a friend goes out again.
    func presenceChanged(_ changes: [UserID: Presence.Status]) {
        sweepIfDue()
        let observers = state.withLockedValue { state in
            Set(changes.keys.flatMap { state.watchers[$0] ?? [] })
        }
        for observer in observers { publish(observer) }
    }

    /// Observed lists (for tests and metrics).
    var observedCount: Int { state.withLockedValue { $0.entries.count } }

    // MARK: Publishing

    /// Sends `user`'s list as it is now, as the next version.
    private func publish(_ user: UserID) {
        let snapshot = state.withLockedValue { state -> (Feed, Int, [FriendshipRecord], [UserID: ProfileRecord])? in
            guard let entry = state.entries[user] else { return nil }
            state.entries[user]?.version += 1
            return (entry.feed, entry.version + 1, entry.rows, entry.profiles)
        }
        guard let (feed, version, rows, profiles) = snapshot else { return }
        let view = FriendsView(version: version, friends: views(of: user, rows: rows, profiles: profiles))
        do {
            let data = try EncodedJSON.encoding(view)
            let frame = PreparedMessage(json: EventMessage.frame(subscription: feed.topic, event: .friends, data: data))
            feed.publish(FeedVersion(version: version, frame: frame))
        } catch {
            logger.error("Friends list not encoded", metadata: ["user": "\(user)", "error": "\(error.message)"])
        }
    }

    /// The rows as `user` sees them, with each accepted friend's presence as last announced.
    func views(of user: UserID, rows: [FriendshipRecord], profiles: [UserID: ProfileRecord]) -> [FriendshipView] {
        rows.compactMap { row in
            let other = row.other(than: user)
            guard let profile = profiles[other] else { return nil }
            return row.view(for: user, other: profile, presence: presence.status(of: other))
        }
    }

    /// `user`'s requests and friendships as a list shows them (rejected requests left out), with the
    /// other sides' profiles.
    func load(_ user: UserID) async throws(WireError) -> ([FriendshipRecord], [UserID: ProfileRecord]) {
        try await logger.storing("read the friends of \(user)") { () async throws(StoreError) in
            let rows = try await store.friendships(of: user).filter { $0.status != .rejected }
            let profiles = try await store.profiles(rows.map { $0.other(than: user) })
            return (rows, Dictionary(profiles.map { ($0.user, $0) }, uniquingKeysWith: { first, _ in first }))
        }
    }

    // MARK: Bookkeeping

    private static func watch(_ observer: UserID, rows: [FriendshipRecord], in state: inout State) {
        for row in rows { state.watchers[row.other(than: observer), default: []].insert(observer) }
    }

    private static func unwatch(_ observer: UserID, rows: [FriendshipRecord], in state: inout State) {
        for row in rows {
            let other = row.other(than: observer)
            state.watchers[other]?.remove(observer)
            if state.watchers[other]?.isEmpty == true { state.watchers.removeValue(forKey: other) }
        }
    }

    /// Lets go of lists nobody has observed for a while, at most once per half `idleSeconds`.
    private func sweepIfDue() {
        let now = clock.now.millisecondsSinceEpoch
        let idle = Self.idleSeconds * 1000
        let ended = state.withLockedValue { state -> [Feed] in
            guard now - state.lastSweep.millisecondsSinceEpoch >= idle / 2 else { return [] }
            state.lastSweep = Instant(millisecondsSinceEpoch: now)
            var ended: [Feed] = []
            for (user, entry) in state.entries
            where entry.feed.subscriberCount == 0 && now - entry.lastGrant.millisecondsSinceEpoch >= idle {
                Self.unwatch(user, rows: entry.rows, in: &state)
                state.entries.removeValue(forKey: user)
                ended.append(entry.feed)
            }
            return ended
        }
        for feed in ended { feed.end(with: []) }
    }
}
