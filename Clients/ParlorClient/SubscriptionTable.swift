import ParlorWire

/// The client's subscriptions: for each target the streams its callers hold, the server's subscription
/// id on the current connection, and the newest version delivered.
///
/// A plain value, driven under the client's lock; what must happen to streams comes back as
/// ``Effect``s for the client to carry out once the lock is released (finishing a stream runs its
/// termination handler, which comes back to the client).
///
/// The streams outlive connections: on a new connection the client subscribes every target again and
/// the new server id is bound to the same entry. Versions make that seamless: a snapshot whose version
/// is not newer than the last one delivered is dropped, so a re-subscription that repeats the current
/// view (or an event that overtakes another) never shows an older state.
///
/// The table knows no game: each target's streams are a ``Followers`` of its game's ``GameStream``,
/// which reads the game's events.
struct SubscriptionTable: Sendable {
    enum Effect: Sendable {
        /// Updates for a target's streams.
        case deliver(Delivery)
        /// Who of a followed game's players is connected (beside its views, without a version).
        case presence(PresenceView)
        /// Who may join and watch a followed game (its `access` event, beside its views).
        case access(GameAccessView)
        /// The operator closed a followed game, for this reason (its `null` and `end` follow).
        case closed(String)
        case finish(StreamsEnd)
        /// The server ended a subscription nobody asked to end, the target still existing: subscribe
        /// again on this connection.
        case resubscribe(SubscriptionTarget)
        /// An event that could not be read.
        case malformed(String)
    }

    struct Entry: Sendable {
        let target: SubscriptionTarget
        var streams: any FollowedStreams
        var serverID: Int?
        var deleted = false
        /// The connection on which an unexpected `end` was last answered by subscribing again.
        var resubscribedOnGeneration: Int?
    }

    private(set) var entries: [SubscriptionTarget: Entry] = [:]
    private var targetsByServerID: [Int: SubscriptionTarget] = [:]
    private var nextSinkID = 0

    var targets: [SubscriptionTarget] { entries.keys.sorted { $0.description < $1.description } }

    func serverID(of target: SubscriptionTarget) -> Int? { entries[target]?.serverID }

    /// Adds a caller's stream of `stream` for the game `key` names. A stream joining a target that
    /// already has a state is primed with it.
    mutating func add<Update>(
        _ continuation: AsyncStream<Update>.Continuation, of stream: GameStream<Update>, key: String
    ) -> (target: SubscriptionTarget, id: Int, prime: Effect?) {
        nextSinkID += 1
        let id = nextSinkID
        let target = stream.target(key)
        var entry = entries[target] ?? Entry(target: target, streams: Followers(stream))
        guard var followers = entry.streams as? Followers<Update> else {
            preconditionFailure("Two game streams of kind \(stream.kind) deliver different updates")
        }
        let prime = followers.add(continuation, id: id, for: target)
        entry.streams = followers
        entries[target] = entry
        return (target, id, prime.map { .deliver($0) })
    }

    /// Removes a stream. When it was the target's last, the target is forgotten, and its server id is
    /// returned for the client to unsubscribe.
    mutating func removeSink(_ id: Int, from target: SubscriptionTarget) -> Int? {
        guard var entry = entries[target], entry.streams.remove(id) else { return nil }
        guard entry.streams.isEmpty else {
            entries[target] = entry
            return nil
        }
        entries[target] = nil
        guard let serverID = entry.serverID else { return nil }
        targetsByServerID[serverID] = nil
        return serverID
    }

    /// The server answered a subscribe request for `target` with `serverID`.
    mutating func bind(_ target: SubscriptionTarget, to serverID: Int) {
        guard var entry = entries[target] else { return }
        if let old = entry.serverID, old != serverID { targetsByServerID[old] = nil }
        entry.serverID = serverID
        entries[target] = entry
        targetsByServerID[serverID] = target
    }

    /// The connection is gone, and with it every server subscription id.
    mutating func unbindAll() {
        targetsByServerID = [:]
        for target in entries.keys { entries[target]?.serverID = nil }
    }

    /// The target no longer exists: tell its streams (its game's deletion) and end them.
    mutating func targetGone(_ target: SubscriptionTarget) -> [Effect] {
        guard let entry = entries.removeValue(forKey: target) else { return [] }
        if let serverID = entry.serverID { targetsByServerID[serverID] = nil }
        let deletion: [Effect] = entry.deleted ? [] : [.deliver(entry.streams.deletion(of: target))]
        return deletion + [.finish(entry.streams.finish())]
    }

    /// The target exists but no longer lets us watch it (a lobby we were removed from): tell its streams
    /// (if its game says how) and end them.
    mutating func targetRevoked(_ target: SubscriptionTarget) -> [Effect] {
        guard let entry = entries.removeValue(forKey: target) else { return [] }
        if let serverID = entry.serverID { targetsByServerID[serverID] = nil }
        let revocation: [Effect] = entry.streams.revocation(of: target).map { [.deliver($0)] } ?? []
        return revocation + [.finish(entry.streams.finish())]
    }

    /// Ends every stream (the client was closed).
    mutating func finishAll() -> [Effect] {
        let ends = entries.values.map { $0.streams.finish() }
        entries = [:]
        targetsByServerID = [:]
        return ends.filter { $0.streams > 0 }.map { .finish($0) }
    }

    /// An event frame for server subscription `sub` (`frame` is the whole frame).
    mutating func receive(sub: Int, event: EventName?, frame: [UInt8], generation: Int) -> [Effect] {
        guard let target = targetsByServerID[sub], var entry = entries[target], let event else { return [] }
        switch event {
        case .end:
            targetsByServerID[sub] = nil
            entry.serverID = nil
            if entry.deleted {
                entries[target] = nil
                return [.finish(entry.streams.finish())]
            }
            guard entry.resubscribedOnGeneration != generation else {
                entries[target] = entry
                return []
            }
            entry.resubscribedOnGeneration = generation
            entries[target] = entry
            return [.resubscribe(target)]
        case .closed:
            do {
                guard let closed = try WireJSON.decode(ServerFrame.Event<ClosedReason>.self, from: frame).data else { return [] }
                return [.closed(closed.reason)]
            } catch {
                return [.malformed("a closed event for \(target) could not be read (\(error))")]
            }
        case .presence:
            do {
                guard let presence = try WireJSON.decode(ServerFrame.Event<PresenceView>.self, from: frame).data else { return [] }
                return [.presence(presence)]
            } catch {
                return [.malformed("a presence event for \(target) could not be read (\(error))")]
            }
        case .access:
            do {
                guard let access = try WireJSON.decode(ServerFrame.Event<GameAccessView>.self, from: frame).data else { return [] }
                return [.access(access)]
            } catch {
                return [.malformed("an access event for \(target) could not be read (\(error))")]
            }
        default:
            return deliver(event, frame, to: &entry)
        }
    }

    /// One of the game's own events: a view (delivered when newer than the last of its kind), or the
    /// public view's `null`, which means the game was deleted.
    private mutating func deliver(_ event: EventName, _ frame: [UInt8], to entry: inout Entry) -> [Effect] {
        let target = entry.target
        defer { entries[target] = entry }
        let received: ReceivedEvent
        do {
            received = try entry.streams.receive(event, frame: frame, for: target)
        } catch {
            return [.malformed("a \(event) event for \(target) could not be read (\(error))")]
        }
        switch received {
        case .notOurs, .nothing:
            return []
        case .deleted:
            guard !entry.deleted else { return [] }
            entry.deleted = true
            return [.deliver(entry.streams.deletion(of: target))]
        case .delivery(let delivery):
            entry.deleted = false
            return [.deliver(delivery)]
        }
    }
}

/// A `closed` event's data: why the operator closed the game.
struct ClosedReason: Decodable, Sendable {
    let reason: String
}
