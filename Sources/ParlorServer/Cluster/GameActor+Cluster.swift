import ParlorRules
import ParlorWire
import WebSocketCore

/// A game in a cluster: which node serves it, told to its subscribers as `node` frames; the copy of a
/// game another node serves, kept current from the announcements of its watch bucket.
extension GameActor {
    /// The game is served by `home` now: its subscribers are told (so that clients on another node
    /// move), and a node that takes the game on reads the last node's version and fires its timers.
    func moved(to home: GameHome) async {
        let before = whereServed.withLockedValue { current -> GameHome in
            defer { current = home }
            return current
        }
        guard home != before, !isDeleted else { return }
        homeSequence += 1
        if let frame = Self.nodeFrame(home, sequence: homeSequence, topic: feed.topic, host: host) { feed.publish(frame, as: .node) }
        guard home == .here else { return }
        // The copy here may be behind what the last node saved; its timers fire here from now on.
        noteAnnounced(nil)
        await catchUp()
        armSchedule()
    }

    /// The `node` frame that tells subscribers who serves the game; nil on a node of its own, and while
    /// no node does.
    static func nodeFrame(_ home: GameHome, sequence: Int, topic: Int, host: GameHost<Game>) -> FeedPresence? {
        guard let node = host.node else { return nil }
        let name: String
        switch home {
        case .here: name = node.name
        case .elsewhere(let other): name = other
        case .unclaimed: return nil
        }
        guard let data = try? EncodedJSON.encoding(ServingNode(node: name)) else { return nil }
        return FeedPresence(sequence: sequence, frame: PreparedMessage(json: EventMessage.frame(subscription: topic, event: .node, data: data)))
    }

    /// Before a watcher subscribes here to a game another node serves: this node starts hearing the
    /// game's watch bucket (and waits until it does), so no version committed after the read below is
    /// missed; when it did not hear it before, the game is read afresh.
    func watchFromHere() async {
        guard let node = host.node, !isServedHere else { return }
        if await node.watch(ClusterChannel.bucket(kind: Game.kind.name, id: id)) || feed.subscriberCount == 0 {
            noteAnnounced(nil)
        }
    }

    /// Another node committed `change`. When it carries the game (it fitted the announcement), the
    /// version is taken from it, without reading the database; otherwise it is read. True when a
    /// version was published.
    func refresh(with change: GameChange) async -> Bool {
        guard let body = change.body, change.version != GameChange.deleted else { return await refresh(toAtLeast: change.version) }
        announced = max(announced, change.version)
        // A group under way saves on top of it or loses its race; a version not newer is no news.
        guard !isBusy, !isDeleted, change.version > state.version else { return false }
        let location = "an announcement from node \(change.node)"
        do {
            let announcedState = try StoredGameState<Game>.state(of: .json(body.state), what: "\(Game.kind.noun) \(id)", location: location)
            let announcedSchedule = try StoredJSON.decode(
                json: body.schedule, as: { try GameSchedule<Action>(json: $0) }, what: "schedule of \(Game.kind.noun) \(id)", location: location)
            try take(announcedState, schedule: announcedSchedule)
        } catch {
            // Unreadable here (another release of the game?): read the row instead.
            return await refresh(toAtLeast: change.version)
        }
        host.cluster?.adoptedFromAnnouncement()
        return true
    }

    /// A copy of a game another node serves that nobody here watches and no request used for `idle`
    /// leaves the directory (it is loaded again if needed). True when it left.
    func evictIfIdle(_ idle: Duration) -> Bool {
        guard !isServedHere, !isBusy, !isDeleted, feed.subscriberCount == 0, ContinuousClock.now - lastUsed >= idle else { return false }
        host.evicted(self)
        return true
    }
}
