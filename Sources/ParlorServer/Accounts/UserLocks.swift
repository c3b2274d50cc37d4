import ParlorRules
import ParlorWire

/// One change at a time per user, in arrival order: a user's avatar uploads replace each other's files,
/// so two at once must not each remove the other's.
actor UserLocks {
    private var busy: Set<UserID> = []
    private var waiting: [UserID: [CheckedContinuation<Void, Never>]] = [:]

    /// Runs `body` once every earlier call for `user` has finished.
    func serialize<T: Sendable>(
        _ user: UserID, _ body: @Sendable () async throws(WireError) -> T
    ) async throws(WireError) -> T {
        await acquire(user)
        defer { release(user) }
        return try await body()
    }

    private func acquire(_ user: UserID) async {
        guard busy.contains(user) else {
            busy.insert(user)
            return
        }
        await withCheckedContinuation { waiting[user, default: []].append($0) }
    }

    private func release(_ user: UserID) {
        guard var queue = waiting[user], !queue.isEmpty else {
            busy.remove(user)
            return
        }
        let next = queue.removeFirst()
        waiting[user] = queue.isEmpty ? nil : queue
        next.resume()
    }
}
