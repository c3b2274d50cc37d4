import ParlorRules
import ParlorWire

/// `friends`: ask, accept or reject, unfriend or withdraw, and list. Every change reaches the live
/// lists of both sides.
extension AccountsService {
    var friendRoutes: [HTTPRoute] {
        [
            HTTPRoute(.POST, "/friends", status: .created) { [self] request throws(WireError) in
                let body = try request.body(FriendRequestBody.self)
                return { [self] context throws(WireError) in .reply(try EncodedJSON.encoding(try await ask(body.addresseeId, by: context.signedIn()))) }
            },
            HTTPRoute(.PUT, "/friends/{id}") { [self] request throws(WireError) in
                let id = request.parameters[0]
                let body = try request.body(FriendResponseBody.self)
                guard let status = FriendshipStatus(rawValue: body.status), status != .pending else {
                    throw WireError(.invalidInput, "status must be \"accepted\" or \"rejected\" (got \"\(ProfileRules.clip(body.status))\").")
                }
                return { [self] context throws(WireError) in .reply(try EncodedJSON.encoding(try await answer(id, status, by: context.signedIn()))) }
            },
            HTTPRoute(.DELETE, "/friends/{id}", status: .noContent) { [self] request throws(WireError) in
                let id = request.parameters[0]
                return { [self] context throws(WireError) in
                    try await remove(id, by: context.signedIn())
                    return .reply(.null)
                }
            },
            HTTPRoute(.GET, "/friends") { [self] request throws(WireError) in
                let asked = try request.query["user_id"].map { text throws(WireError) in try Self.userID(text, field: "user_id") }
                return { [self] context throws(WireError) in
                    let user = try context.signedIn()
                    guard asked == nil || asked == user else { throw WireError(.forbidden, "You can list only your own friends.") }
                    return .reply(try EncodedJSON.encoding(try await list(of: user)))
                }
            },
        ]
    }

    func ask(_ addressee: UserID, by user: UserID) async throws(WireError) -> FriendshipView {
        guard addressee != user else { throw WireError(.invalidInput, "You cannot send a friend request to yourself.") }
        guard try await profile(of: user) != nil else {
            throw WireError(.profileNotFound, "Create your profile (POST /users) before asking anyone to be friends.")
        }
        guard let other = try await profile(of: addressee) else { throw Self.noProfile(addressee) }
        for side in [user, addressee] {
            let count = try await logger.storing("read the friends of \(side)") { () async throws(StoreError) in try await store.friendships(of: side).count }
            guard count < maxFriendships else {
                throw WireError(
                    .tooManyFriends,
                    side == user
                        ? "You have \(maxFriendships) friends and requests, the most one may have; remove some first."
                        : "\(other.displayName) has as many friends and requests as one may have.")
            }
        }
        let now = clock.now
        var generator = SystemRandomNumberGenerator()
        let friendship = FriendshipRecord(
            id: UserID.random(using: &generator).rawValue, requester: user, addressee: addressee, status: .pending, createdAt: now,
            updatedAt: now)
        let created = try await logger.storing("save a friend request") { () async throws(StoreError) in try await store.createFriendship(friendship) }
        guard created else {
            throw WireError(.friendRequestExists, "You and \(other.displayName) already have a friend request or are friends.")
        }
        await feeds.refresh([user, addressee])
        return friendship.view(for: user, other: other, presence: nil)
    }

    func answer(_ id: String, _ status: FriendshipStatus, by user: UserID) async throws(WireError) -> FriendshipView {
        var friendship = try await own(id, of: user)
        guard friendship.addressee == user else {
            throw WireError(.forbidden, "Only the person asked can accept or reject a request; withdraw yours with DELETE.")
        }
        if friendship.status != status {
            guard friendship.status == .pending else {
                throw WireError(.invalidState, "This request was already \(friendship.status.rawValue); DELETE it to undo.")
            }
            friendship.status = status
            friendship.updatedAt = clock.now
            let saved = friendship
            let updated = try await logger.storing("save friend request \(id)") { () async throws(StoreError) in try await store.updateFriendship(saved) }
            guard updated else { throw Self.noFriendship(id) }
            await feeds.refresh([friendship.requester, friendship.addressee])
        }
        guard let other = try await profile(of: friendship.requester) else { throw Self.noProfile(friendship.requester) }
        return friendship.view(for: user, other: other, presence: presence.status(of: other.user))
    }

    func remove(_ id: String, by user: UserID) async throws(WireError) {
        let friendship = try await own(id, of: user)
        let deleted = try await logger.storing("delete friend request \(id)") { () async throws(StoreError) in try await store.deleteFriendship(id: id) }
        guard deleted else { throw Self.noFriendship(id) }
        await feeds.refresh([friendship.requester, friendship.addressee])
    }

    /// Accepted friends and pending requests both ways, oldest first.
    func list(of user: UserID) async throws(WireError) -> [FriendshipView] {
        let (rows, profiles) = try await feeds.load(user)
        return feeds.views(of: user, rows: rows, profiles: profiles)
    }

    /// The request `id`, if `user` is one of its sides (anyone else is told it does not exist).
    private func own(_ id: String, of user: UserID) async throws(WireError) -> FriendshipRecord {
        let mine = try await logger.storing("read the friends of \(user)") { () async throws(StoreError) in try await store.friendships(of: user) }
        guard let friendship = mine.first(where: { $0.id == id }) else { throw Self.noFriendship(id) }
        return friendship
    }

    private static func noFriendship(_ id: String) -> WireError {
        WireError(.friendshipNotFound, "You have no friend request or friendship \(ProfileRules.clip(id)).")
    }
}
