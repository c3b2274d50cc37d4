/// A reply frame, or why there is none.
typealias ReplyOutcome = Result<[UInt8], ParlorClientError>

/// What a reply means to the client besides its requester.
enum RequestPurpose: Sendable, Equatable {
    case plain
    /// A subscribe request: its reply binds the server's subscription id to the target at once, so
    /// the events that follow the reply are not lost.
    case subscribe(SubscriptionTarget)
}

/// The requests sent and not yet answered: their ids, the bound on how many there may be, and each
/// one's outcome until its requester collects it.
///
/// A plain value, driven under the client's lock. The answer may arrive before the requester starts
/// waiting (it is kept until collected) and the requester may give up first (timeout, cancellation):
/// whichever comes first decides, the other finds the request gone.
struct PendingRequests<Waiter> {
    typealias Outcome = ReplyOutcome
    typealias Purpose = RequestPurpose

    struct Entry {
        let operation: String
        /// The connection the request went out on.
        let generation: Int
        let purpose: Purpose
        var waiter: Waiter?
        var outcome: Outcome?
    }

    let limit: Int
    private(set) var entries: [Int64: Entry] = [:]
    private var nextID: Int64 = 1

    init(limit: Int) {
        self.limit = max(limit, 1)
    }

    var count: Int { entries.count }

    /// Requests sent on connection `generation` and not yet answered.
    func count(generation: Int) -> Int { entries.values.count { $0.generation == generation && $0.outcome == nil } }

    /// A new request id, or nil when `limit` requests are already pending.
    mutating func register(operation: String, generation: Int, purpose: Purpose = .plain) -> Int64? {
        guard entries.count < limit else { return nil }
        let id = nextID
        nextID += 1
        entries[id] = Entry(operation: operation, generation: generation, purpose: purpose)
        return id
    }

    func entry(_ id: Int64) -> Entry? { entries[id] }

    /// Records the outcome of `id`. Returns the waiter to resume (the entry is then gone), or nil when
    /// nobody waits yet (the outcome is kept) or the request is already decided.
    mutating func complete(_ id: Int64, with outcome: Outcome) -> (Waiter, Outcome)? {
        guard var entry = entries[id], entry.outcome == nil else { return nil }
        if let waiter = entry.waiter {
            entries[id] = nil
            return (waiter, outcome)
        }
        entry.outcome = outcome
        entries[id] = entry
        return nil
    }

    /// Starts waiting for `id`: returns its outcome at once if it is decided (or gone), else keeps
    /// `waiter` to be returned by `complete`.
    mutating func wait(_ id: Int64, waiter: Waiter) -> Outcome? {
        guard var entry = entries[id] else { return .failure(.cancelled) }
        if let outcome = entry.outcome {
            entries[id] = nil
            return outcome
        }
        entry.waiter = waiter
        entries[id] = entry
        return nil
    }

    /// Forgets `id` (its requester no longer waits).
    mutating func remove(_ id: Int64) {
        entries[id] = nil
    }

    /// Fails every undecided request sent on connection `generation` or earlier with
    /// `.connectionLost`: their outcome is unknown — unless the server said it never read those of
    /// `generation` (`unread`: it closed with 1012 after answering everything it read), which fail
    /// with `.unreadBeforeRestart`, to be sent again.
    mutating func connectionLost(generation: Int, unread: Bool = false) -> [(Waiter, Outcome)] {
        var resumptions: [(Waiter, Outcome)] = []
        for id in entries.keys.sorted() {
            guard let entry = entries[id], entry.generation <= generation, entry.outcome == nil else { continue }
            let error: ParlorClientError =
                unread && entry.generation == generation
                ? .unreadBeforeRestart(entry.operation) : .connectionLost(operation: entry.operation)
            if let resumption = complete(id, with: .failure(error)) {
                resumptions.append(resumption)
            }
        }
        return resumptions
    }
}

extension PendingRequests: Sendable where Waiter: Sendable {}
extension PendingRequests.Entry: Sendable where Waiter: Sendable {}
