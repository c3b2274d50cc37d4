import ParlorWire

/// The callers' streams of one followed game, whatever its stream delivers: the subscription table
/// holds one per target without knowing the game (``Followers`` is the one implementation).
protocol FollowedStreams: Sendable {
    var isEmpty: Bool { get }
    /// Forgets a caller's stream; false when it was not one of these.
    mutating func remove(_ id: Int) -> Bool
    /// An event of the game's stream; throws when it cannot be read.
    mutating func receive(_ event: EventName, frame: [UInt8], for target: SubscriptionTarget) throws -> ReceivedEvent
    /// What the streams get when the game is deleted.
    func deletion(of target: SubscriptionTarget) -> Delivery
    /// What the streams get when watching is revoked; nil when they just end.
    func revocation(of target: SubscriptionTarget) -> Delivery?
    /// Ends every stream.
    func finish() -> StreamsEnd
}

/// What an event of a followed game means to its streams.
enum ReceivedEvent: Sendable {
    /// The game's stream has no such event (another game's).
    case notOurs
    /// Nothing to deliver: a version not newer than the last, or a private view's `null`.
    case nothing
    /// The public view's `null`: the game was deleted.
    case deleted
    case delivery(Delivery)
}

/// Updates for some streams, yielded by the client once its lock is released.
struct Delivery: Sendable {
    let target: SubscriptionTarget
    /// The event that carried it, and its version; nil for a deletion or a revocation.
    let event: EventName?
    let version: Int?
    /// What is delivered, as the streams receive it.
    let update: any Sendable
    let streams: Int
    let yield: @Sendable () -> Void
}

/// Streams to finish, once the client's lock is released (finishing runs their termination handlers,
/// which come back to the client).
struct StreamsEnd: Sendable {
    let streams: Int
    let finish: @Sendable () -> Void
}

/// A followed game's streams of `Update`s, with the newest version and update of each of its events
/// (a stream that joins later is primed with them).
struct Followers<Update: Sendable>: FollowedStreams {
    let stream: GameStream<Update>
    private(set) var continuations: [Int: AsyncStream<Update>.Continuation] = [:]
    private var versions: [EventName: Int] = [:]
    private var newest: [EventName: Update] = [:]

    init(_ stream: GameStream<Update>) { self.stream = stream }

    var isEmpty: Bool { continuations.isEmpty }

    /// Adds a caller's stream: what it is primed with (the newest of each event, public view first).
    mutating func add(_ continuation: AsyncStream<Update>.Continuation, id: Int, for target: SubscriptionTarget) -> Delivery? {
        continuations[id] = continuation
        let primers = stream.channels.compactMap { newest[$0.event] }
        guard !primers.isEmpty else { return nil }
        let event = stream.channels.first { newest[$0.event] != nil }?.event
        return Delivery(
            target: target, event: event, version: event.flatMap { versions[$0] }, update: primers[0], streams: 1,
            yield: { for update in primers { continuation.yield(update) } })
    }

    mutating func remove(_ id: Int) -> Bool { continuations.removeValue(forKey: id) != nil }

    mutating func receive(_ event: EventName, frame: [UInt8], for target: SubscriptionTarget) throws -> ReceivedEvent {
        guard let channel = stream.channels.first(where: { $0.event == event }) else { return .notOurs }
        guard let (version, update) = try channel.read(frame) else { return channel.nullIsDeletion ? .deleted : .nothing }
        if let last = versions[event], version <= last { return .nothing }
        versions[event] = version
        newest[event] = update
        return .delivery(delivery(update, for: target, event: event, version: version))
    }

    func deletion(of target: SubscriptionTarget) -> Delivery {
        delivery(stream.deleted, for: target, event: nil, version: nil)
    }

    func revocation(of target: SubscriptionTarget) -> Delivery? {
        stream.removed.map { delivery($0, for: target, event: nil, version: nil) }
    }

    func finish() -> StreamsEnd {
        let continuations = Array(continuations.values)
        return StreamsEnd(streams: continuations.count, finish: { for continuation in continuations { continuation.finish() } })
    }

    private func delivery(_ update: Update, for target: SubscriptionTarget, event: EventName?, version: Int?) -> Delivery {
        let continuations = continuations.keys.sorted().compactMap { self.continuations[$0] }
        return Delivery(
            target: target, event: event, version: version, update: update, streams: continuations.count,
            yield: { for continuation in continuations { continuation.yield(update) } })
    }
}
