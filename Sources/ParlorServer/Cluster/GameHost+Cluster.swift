import ParlorRules
import ParlorWire

/// One kind's games in a cluster: taking on a game no serving node serves, hearing where games moved,
/// the periodic review of the copies of games other nodes serve.
extension GameHost {
    /// Before an operation on `actor`: a game no serving node serves (its node died or drained, or
    /// none ever did) is taken on here, so that it has a node again and its players are sent to it.
    func serve(_ actor: GameActor<Game>) async {
        guard let node else { return }
        let home = actor.home
        switch home {
        case .here: return
        case .elsewhere(let other):
            if await node.isServingNow(other) { return }
            await claim(actor, seen: other)
        case .unclaimed:
            await claim(actor, seen: nil)
        }
    }

    /// Tries to make this node the one that serves `actor`'s game, if it is still served by `seen`
    /// (nil: none); the actor learns who serves it now either way.
    func claim(_ actor: GameActor<Game>, seen: String?) async {
        guard let node else { return }
        switch await node.claim(Game.kind, id: actor.id, seen: seen) {
        case .home(let home):
            if home == .here {
                cluster?.claimed()
                logger.info("Game taken on", metadata: ["kind": "\(Game.kind)", "id": "\(actor.id)", "from": "\(seen ?? "no node")"])
            }
            await actor.moved(to: home)
        case .gone:
            _ = await actor.reload(onlyIfNewer: true)
        case .failed:
            break
        }
    }

    /// Another node took a game, let its games go, or deleted a game.
    func homeChanged(_ change: HomeChange) async {
        switch change {
        case .claimed(let node, let kind, let id):
            guard kind == Game.kind.name, let actor = directory.game(id: id) else { return }
            await actor.moved(to: node == self.node?.name ? .here : .elsewhere(node))
        case .released(let node):
            for actor in directory.all where actor.home == .elsewhere(node) {
                // Whoever has players here takes it: they are about to need it.
                if actor.feed.subscriberCount > 0 { await claim(actor, seen: nil) } else { await actor.moved(to: .unclaimed) }
            }
        case .deleted(let node, let kind, let id):
            guard kind == Game.kind.name else { return }
            changedElsewhere(GameChange(node: node, kind: kind, id: id, version: GameChange.deleted, committedAt: GameChange.wallClockMicroseconds()))
        case .accountDeleted:
            return
        }
    }

    /// After a heartbeat: games watched here whose node stopped serving are taken on; the others'
    /// copies are marked as having no node. Returns the watch buckets of the games watched here that
    /// another node serves.
    func reviewHomes() async -> Set<Int> {
        guard let node else { return [] }
        var buckets = Set<Int>()
        for actor in directory.all {
            let home = actor.home
            let watched = actor.feed.subscriberCount > 0
            switch home {
            case .here:
                continue
            case .elsewhere(let other) where node.isServing(other):
                break
            case .elsewhere, .unclaimed:
                if watched {
                    await claim(actor, seen: home.otherNode)
                } else if home != .unclaimed {
                    await actor.moved(to: .unclaimed)
                }
            }
            if watched, !actor.isServedHere { buckets.insert(ClusterChannel.bucket(kind: Game.kind.name, id: actor.id)) }
        }
        return buckets
    }

    /// Drops the copies of games other nodes serve that nobody here watched or used for `idle`.
    func evictIdleCopies(idle: Duration) async -> Int {
        var evicted = 0
        for actor in directory.all where !actor.isServedHere {
            if await actor.evictIfIdle(idle) { evicted += 1 }
        }
        return evicted
    }

    /// Games held here and their subscriptions, by whether this node serves them (`/metrics`).
    var servedCounts: ServedCounts {
        var counts = ServedCounts()
        for actor in directory.all {
            let subscribers = actor.feed.subscriberCount
            if actor.isServedHere {
                counts.gamesHere += 1
                counts.subscriptionsHere += subscribers
            } else {
                counts.gamesElsewhere += 1
                counts.subscriptionsElsewhere += subscribers
            }
        }
        return counts
    }
}

/// Games held by a node and their subscriptions, by whether the node serves them.
struct ServedCounts: Sendable, Equatable {
    var gamesHere = 0
    var gamesElsewhere = 0
    var subscriptionsHere = 0
    var subscriptionsElsewhere = 0

    static func + (lhs: ServedCounts, rhs: ServedCounts) -> ServedCounts {
        ServedCounts(
            gamesHere: lhs.gamesHere + rhs.gamesHere, gamesElsewhere: lhs.gamesElsewhere + rhs.gamesElsewhere,
            subscriptionsHere: lhs.subscriptionsHere + rhs.subscriptionsHere,
            subscriptionsElsewhere: lhs.subscriptionsElsewhere + rhs.subscriptionsElsewhere)
    }
}
