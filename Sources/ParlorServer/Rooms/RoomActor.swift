import Logging
import ParlorRules
import ParlorWire
import WebSocketCore

/// The one writer of one rummy room.
///
/// Every mutation goes through `perform`: the pure rule computes the next room, the store makes it
/// durable, and only then does the actor adopt it, publish it to the room's feed and answer. Mutations
/// of one room are applied one at a time in arrival order, and nothing is published or answered
/// before the store has it; different rooms run in parallel and share the store's group commit.
///
/// Mutations that arrive while the room waits for the store are not held back one save each: the next
/// *group* takes all of them, applies them in order, saves the last room once and answers each with
/// the room as its own mutation left it (every version is still published, in order). A busy room
/// therefore makes one save per commit of the store rather than one per mutation, which is what keeps
/// a room's throughput from being capped by how fast the server can come back to it after a commit.
actor RoomActor {
    enum Outcome: Sendable {
        /// The room after the operation (unchanged for a no-op), with its public view encoded once.
        case room(RummyRoom, EncodedJSON)
        /// The operation deleted the room (its last player left).
        case deleted
    }

    nonisolated let code: RoomCode
    nonisolated let feed: Feed
    private var room: RummyRoom
    private var encoded: EncodedJSON
    private var isDeleted = false
    /// When the room last changed (for expiry). Rooms loaded at start-up count from the load.
    private(set) var lastChange: Instant
    private let environment: RoomEnvironment
    /// A group is being applied and saved (or the room is being expired): new mutations queue.
    private var isBusy = false
    private var queue: [Pending] = []
    private var queueHead = 0

    init(room: RummyRoom, environment: RoomEnvironment) throws(WireError) {
        code = room.id
        feed = Feed()
        self.room = room
        self.environment = environment
        lastChange = environment.clock.now
        encoded = Self.encode(room)
        feed.publish(version: room.version, frame: Self.eventFrame(topic: feed.topic, encoded))
    }

    /// The committed room and its encoded view.
    func current() throws(WireError) -> (RummyRoom, EncodedJSON) {
        guard !isDeleted else { throw WireError(RoomError.roomNotFound(code: code.rawValue)) }
        return (room, encoded)
    }

    func perform(_ action: RummyAction, by caller: UserID) async throws(WireError) -> Outcome {
        if isBusy {
            let turn = await withCheckedContinuation { (continuation: CheckedContinuation<Turn, Never>) in
                queue.append(Pending(action: action, caller: caller, continuation: continuation))
            }
            switch turn {
            case .done(let result): return try result.get()
            case .lead: break  // The room is still busy, on our behalf now: run the next group.
            }
        } else {
            isBusy = true
        }
        let result = await runGroup(leader: Pending(action: action, caller: caller, continuation: nil))
        handOver()
        return try result.get()
    }

    /// Mutations waiting for the group in progress (for tests).
    var queuedMutations: Int { queue.count - queueHead }

    /// Subscribes to the room's versions; the current one arrives first.
    func subscribe(user: UserID?) throws(WireError) -> FeedSubscription {
        guard !isDeleted, let subscription = feed.subscribe(user: user) else {
            throw WireError(RoomError.roomNotFound(code: code.rawValue))
        }
        return subscription
    }

    /// Deletes the room if nobody in it is connected and it has not changed since `cutoff`. A room
    /// with mutations in flight is in use, not abandoned.
    func expireIfAbandoned(unchangedSince cutoff: Instant, presence: Presence) async -> Bool {
        guard !isBusy, !isDeleted, lastChange <= cutoff,
              !room.players.contains(where: { presence.isConnected($0.id) }) else {
            return false
        }
        isBusy = true
        defer { handOver() }
        do {
            try await delete(reason: "expired")
            return true
        } catch {
            return false
        }
    }

    // MARK: Groups

    private enum Turn: Sendable {
        /// Another caller's group applied this mutation: here is its answer.
        case done(Result<Outcome, WireError>)
        /// This caller runs the next group (its own mutation first).
        case lead
    }

    private struct Pending {
        var action: RummyAction
        var caller: UserID
        /// Nil for the caller running the group, who takes its answer directly.
        var continuation: CheckedContinuation<Turn, Never>?
    }

    /// Frees the room, or passes it to the longest-waiting caller to run the next group.
    private func handOver() {
        guard queueHead < queue.count else {
            emptyQueue()
            isBusy = false
            return
        }
        let next = queue[queueHead]
        queueHead += 1
        next.continuation?.resume(returning: .lead)
    }

    /// Takes the leader's mutation and everything queued behind it, applies them in order, saves the
    /// resulting room once, then publishes every new version and answers everyone. A group ends early
    /// (the rest wait for the next one) before a mutation that deletes the room and after one that
    /// finishes the game, so that the finished game is saved, and filed in history, as it finished.
    private func runGroup(leader: Pending) async -> Result<Outcome, WireError> {
        guard !isDeleted else { return .failure(WireError(RoomError.roomNotFound(code: code.rawValue))) }
        var group = [leader]
        var results: [Result<Outcome, WireError>] = []
        var versions: [(version: Int, encoded: EncodedJSON)] = []
        /// Index in `group` of the first mutation that changed the room.
        var firstChange: Int?
        var next = room
        var nextEncoded = encoded
        let now = environment.clock.now
        var index = 0
        while index < group.count {
            var attempt = next
            let events: [RoomEvent]
            do {
                events = try attempt.apply(group[index].action, by: group[index].caller, at: now)
            } catch {
                results.append(.failure(WireError(error)))
                index += 1
                if index == group.count { takeQueued(into: &group) }
                continue
            }
            if events.isEmpty {
                results.append(.success(.room(next, nextEncoded)))
            } else if events.contains(where: { if case .roomDeleted = $0 { true } else { false } }) {
                if firstChange != nil {
                    // Save what came before first; this mutation leads a later group.
                    putBack(group[index...])
                    group.removeSubrange(index...)
                    break
                }
                putBack(group[(index + 1)...])
                group.removeSubrange((index + 1)...)
                let deleted: Result<Outcome, WireError>
                do {
                    try await delete(reason: "last player left")
                    deleted = .success(.deleted)
                } catch {
                    deleted = .failure(error)
                }
                results.append(deleted)
                // Whatever queued behind the deletion finds the room gone (or still there if the
                // deletion failed) when it leads the next group.
                resume(group, with: results)
                return results[0]
            } else {
                let finishes = !next.isFinished && attempt.isFinished
                next = attempt
                nextEncoded = Self.encode(next)
                firstChange = firstChange ?? index
                versions.append((next.version, nextEncoded))
                results.append(.success(.room(next, nextEncoded)))
                if finishes {
                    index += 1
                    break
                }
            }
            index += 1
            if index == group.count { takeQueued(into: &group) }
        }
        if results.count < group.count {
            putBack(group[results.count...])
            group.removeSubrange(results.count...)
        }

        if let firstChange {
            do {
                try await environment.store.saveRoom(next)
                room = next
                encoded = nextEncoded
                lastChange = environment.clock.now
                for version in versions {
                    feed.publish(version: version.version, frame: Self.eventFrame(topic: feed.topic, version.encoded))
                }
            } catch {
                // Nothing of the group from its first change on is kept: answers computed on top of
                // the unsaved room would describe a room that does not exist.
                let failure = environment.storeFailure(error, operation: "save room \(code)")
                for failed in firstChange..<results.count { results[failed] = .failure(failure) }
            }
        }
        resume(group, with: results)
        return results[0]
    }

    /// Moves every queued mutation into the group being built (they run in arrival order).
    private func takeQueued(into group: inout [Pending]) {
        guard queueHead < queue.count else { return }
        group.append(contentsOf: queue[queueHead...])
        emptyQueue()
    }

    /// Keeps a small queue's storage for the next burst; lets a large one go.
    private func emptyQueue() {
        queue.removeAll(keepingCapacity: queue.capacity <= 64)
        queueHead = 0
    }

    /// Returns mutations taken into a group to the front of the queue, in order.
    private func putBack(_ pending: ArraySlice<Pending>) {
        queue.replaceSubrange(queueHead..<queueHead, with: pending)
    }

    /// Answers every member of a group but its leader, whose answer is returned.
    private func resume(_ group: [Pending], with results: [Result<Outcome, WireError>]) {
        for (member, result) in zip(group, results) {
            member.continuation?.resume(returning: .done(result))
        }
    }

    private func delete(reason: String) async throws(WireError) {
        do {
            try await environment.store.deleteRoom(code)
        } catch {
            throw environment.storeFailure(error, operation: "delete room \(code)")
        }
        isDeleted = true
        environment.logger.debug("Room deleted", metadata: ["room": "\(code)", "reason": "\(reason)"])
        // Observers get `data: null`, then `end` (the seed's stream of GameRoom? ends with nil).
        feed.end(with: [
            PreparedMessage(json: EventMessage.frame(subscription: feed.topic, event: .room, data: .null)),
            PreparedMessage(json: EventMessage.end(subscription: feed.topic)),
        ])
        environment.roomDeleted(code)
    }

    private static func encode(_ room: RummyRoom) -> EncodedJSON {
        EncodedJSON(gameRoomOf: room)
    }

    private static func eventFrame(topic: Int, _ encoded: EncodedJSON) -> PreparedMessage {
        PreparedMessage(json: EventMessage.frame(subscription: topic, event: .room, data: encoded))
    }
}

/// What room and lobby actors need from the server around them.
struct RoomEnvironment: Sendable {
    var store: any ParlorStore
    var clock: any ParlorClock
    var logger: Logger
    /// Called once when a room is deleted, to take it out of the directory.
    var roomDeleted: @Sendable (RoomCode) -> Void

    /// Logs a store failure with its cause and turns it into the `INTERNAL` the caller sees.
    func storeFailure(_ error: StoreError, operation: String) -> WireError {
        logger.error("Store failure", metadata: ["operation": "\(operation)", "cause": "\(error.reason)"])
        return WireError.internalError("The server could not save the change; nothing was changed. Try again.")
    }
}
