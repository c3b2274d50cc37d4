import Logging
import ParlorRules
import ParlorWire
import WebSocketCore

/// The one writer of one rummy room.
///
/// Every mutation goes through `perform`: the pure rule computes the next room, the store makes it
/// durable, and only then does the actor adopt it, publish it to the room's feed and answer. Mutations
/// of one room run one at a time in arrival order (the gate), so an operation that waits for the store
/// cannot interleave with another; different rooms run in parallel and share the store's group commit.
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
    private var gate = GateState()

    init(room: RummyRoom, environment: RoomEnvironment) throws(WireError) {
        code = room.id
        feed = Feed()
        self.room = room
        self.environment = environment
        lastChange = environment.clock.now
        encoded = try Self.encode(room)
        feed.publish(version: room.version, frame: Self.eventFrame(topic: feed.topic, encoded))
    }

    /// The committed room and its encoded view.
    func current() throws(WireError) -> (RummyRoom, EncodedJSON) {
        guard !isDeleted else { throw WireError(RoomError.roomNotFound(code: code.rawValue)) }
        return (room, encoded)
    }

    func perform(_ action: RummyAction, by caller: UserID) async throws(WireError) -> Outcome {
        await enterGate()
        defer { leaveGate() }
        guard !isDeleted else { throw WireError(RoomError.roomNotFound(code: code.rawValue)) }
        var next = room
        let events: [RoomEvent]
        do {
            events = try next.apply(action, by: caller, at: environment.clock.now)
        } catch {
            throw WireError(error)
        }
        if events.isEmpty { return .room(room, encoded) }
        if events.contains(where: { if case .roomDeleted = $0 { true } else { false } }) {
            try await delete(reason: "last player left")
            return .deleted
        }
        let nextEncoded = try Self.encode(next)
        do {
            try await environment.store.saveRoom(next)
        } catch {
            throw environment.storeFailure(error, operation: "save room \(code)")
        }
        // The gate kept other mutations out while we waited, so `room` is still the version we started from.
        room = next
        encoded = nextEncoded
        lastChange = environment.clock.now
        feed.publish(version: room.version, frame: Self.eventFrame(topic: feed.topic, encoded))
        return .room(room, encoded)
    }

    /// Subscribes to the room's versions; the current one arrives first.
    func subscribe(user: UserID?) throws(WireError) -> FeedSubscription {
        guard !isDeleted, let subscription = feed.subscribe(user: user) else {
            throw WireError(RoomError.roomNotFound(code: code.rawValue))
        }
        return subscription
    }

    /// Deletes the room if nobody in it is connected and it has not changed since `cutoff`.
    func expireIfAbandoned(unchangedSince cutoff: Instant, presence: Presence) async -> Bool {
        await enterGate()
        defer { leaveGate() }
        guard !isDeleted, lastChange <= cutoff, !room.players.contains(where: { presence.isConnected($0.id) }) else {
            return false
        }
        do {
            try await delete(reason: "expired")
            return true
        } catch {
            return false
        }
    }

    private func enterGate() async {
        if gate.tryEnter() { return }
        await withCheckedContinuation { gate.enqueue($0) }
    }

    private func leaveGate() {
        gate.leave()?.resume()
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

    private static func encode(_ room: RummyRoom) throws(WireError) -> EncodedJSON {
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

/// First-come, first-served mutual exclusion for an actor's async operations: the actor owns one and
/// wraps it in `enterGate()` (suspends while another operation holds it) and `leaveGate()`.
struct GateState {
    private var busy = false
    private var waiters: [CheckedContinuation<Void, Never>] = []
    private var head = 0

    /// Takes the gate if it is free.
    mutating func tryEnter() -> Bool {
        if busy { return false }
        busy = true
        return true
    }

    mutating func enqueue(_ waiter: CheckedContinuation<Void, Never>) {
        waiters.append(waiter)
    }

    /// The next waiter, who now holds the gate; nil when nobody waits (the gate is open again).
    mutating func leave() -> CheckedContinuation<Void, Never>? {
        guard head < waiters.count else {
            busy = false
            return nil
        }
        let next = waiters[head]
        head += 1
        if head == waiters.count {
            waiters.removeAll(keepingCapacity: true)
            head = 0
        }
        return next
    }
}
