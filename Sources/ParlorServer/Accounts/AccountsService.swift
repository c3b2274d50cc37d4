import Logging
import ParlorRules
import ParlorWire

/// The darts app's accounts on the game server's port and store (seed `darts-srs.md`): profiles and
/// search (`/users`), friends (`/friends`, and `observeFriends` live with presence), and avatars
/// (`/storage/v1/object/…`). Every route acts as the bearer token's user.
///
/// A profile's statistics come from the game that registered them (darts); the accounts never name a
/// game.
final class AccountsService: Sendable {
    let store: any ParlorStore
    let clock: any ParlorClock
    let logger: Logger
    let presence: Presence
    let feeds: FriendsFeeds
    let avatars: Avatars
    private let profileStats: ProfileStatsSource?

    /// Requests and friendships one user may have at once, either side (`--max-friends`).
    let maxFriendships: Int
    /// Search answers at most this many profiles.
    static let searchLimit = 20
    static let searchLength = 2...50

    init(
        store: any ParlorStore, storage: any ObjectStorage, presence: Presence, clock: any ParlorClock, logger: Logger,
        maxFriendships: Int, profileStats: ProfileStatsSource?
    ) {
        self.maxFriendships = maxFriendships
        self.store = store
        self.clock = clock
        self.logger = logger
        self.presence = presence
        self.profileStats = profileStats
        let feeds = FriendsFeeds(store: store, presence: presence, clock: clock, logger: logger)
        self.feeds = feeds
        avatars = Avatars(storage: storage, store: store, feeds: feeds, clock: clock, logger: logger)
        presence.onChange { changes in feeds.presenceChanged(changes) }
    }

    var routes: [HTTPRoute] { profileRoutes + friendRoutes + avatars.routes }

    var operations: [OperationEntry] { [observeFriends.entry()] }

    /// `observeFriends`: your friends list now, then again at every change.
    var observeFriends: OperationHandler<EmptyArguments> {
        OperationHandler(Operation.observeFriends) { [feeds] _, context throws(WireError) in
            .subscribe(try await feeds.grant(for: try context.signedIn())) { topic throws(WireError) in
                try EncodedJSON.encoding(Subscribed(subscription: topic))
            }
        }
    }

    // MARK: Shared

    /// The user's lifetime statistics, from the game that keeps them.
    func stats(of user: UserID) async throws(WireError) -> ProfileStats {
        guard let profileStats else { return .none }
        return try await profileStats(user)
    }

    func view(_ profile: ProfileRecord) async throws(WireError) -> ProfileView {
        profile.view(stats: try await stats(of: profile.user))
    }

    func profile(of user: UserID) async throws(WireError) -> ProfileRecord? {
        try await logger.storing("read the profile of \(user)") { () async throws(StoreError) in try await store.profiles([user]).first }
    }

    static func userID(_ text: String, field: String) throws(WireError) -> UserID {
        guard let user = UserID(text) else {
            throw WireError(.invalidInput, "\(field) must be a user id (a UUID); got \"\(ProfileRules.clip(text))\".")
        }
        return user
    }
}
