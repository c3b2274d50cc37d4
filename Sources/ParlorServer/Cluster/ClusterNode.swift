import Foundation
import Logging
import NIOConcurrencyHelpers
import ParlorRules

/// This node of a cluster (`--postgres`): its name, which nodes are alive and serving, and the database
/// calls that move a game from one node to another. None on a node of its own.
///
/// Every game is served by one node (`GameHome`), recorded in the shared database as `games.node`: the
/// node that created it, until that node drains or stops beating; then whichever node needs the game
/// next takes it (`claim`), and every node hears so. The front routes a game's players to the node
/// that serves it by the name each node gives itself (`/ws?node=NAME`), which is this node's `name`.
/// While two nodes are up a game never moves: a claim takes only a game whose node is gone, draining,
/// or none.
final class ClusterNode: Sendable {
    let name: String
    /// This run of the node: a restart under the same name is a new incarnation.
    let incarnation = UUID().uuidString
    let store: any ClusterDatabase
    let configuration: ServerConfiguration.Cluster
    let logger: Logger

    private struct State {
        /// The nodes that are up and not draining, as the last beat read them.
        var serving: Set<String> = []
        /// When a beat last read them.
        var lastBeat: ContinuousClock.Instant?
        var isDraining = false
        /// The watch buckets heard.
        var watched: Set<Int> = []
        /// Buckets a new watcher asked for, and when: kept for a few seconds whatever a review finds.
        var recentlyWatched: [Int: ContinuousClock.Instant] = [:]
    }

    private let state = NIOLockedValueBox(State())

    init(store: any ClusterDatabase, configuration: ServerConfiguration.Cluster, logger: Logger) {
        name = store.node
        self.store = store
        self.configuration = configuration
        self.logger = logger
    }

    /// The name a node takes when none is given: the machine's host name, made to fit.
    static func defaultName() -> String {
        let host = ProcessInfo.processInfo.hostName
        let fitted = String(String.UnicodeScalarView(host.unicodeScalars.map { scalar in
            ServerConfiguration.Cluster.isValidNodeName(String(scalar)) ? scalar : "-"
        }).prefix(40))
        return fitted.isEmpty ? "parlor" : fitted
    }

    /// Takes this node's name for this run, waiting while a node of that name was alive moments ago
    /// (a restart right after a crash: its last beat must go stale first). Fails when another process
    /// under the same name keeps beating.
    func join() async throws(StoreError) {
        let deadline = ContinuousClock.now + configuration.deadAfter * 2 + .seconds(1)
        while true {
            do {
                try await store.join(incarnation: incarnation, deadAfter: configuration.deadAfter)
                break
            } catch where error.kind == .unavailable && ContinuousClock.now < deadline {
                logger.notice("Waiting for the last node named \(name) to be taken for gone", metadata: ["cause": "\(error.reason)"])
                try? await Task.sleep(for: .milliseconds(500))
            }
        }
        await beat()
        logger.info("Joined the cluster", metadata: ["node": "\(name)", "serving": "\((servingNodes ?? []).sorted())"])
    }

    /// Whether `node` serves games now, as the last beat read it. While beats cannot be read (the
    /// database is away) every node counts as serving: nothing is taken from a node that may be alive.
    func isServing(_ node: String) -> Bool {
        state.withLockedValue { state in
            guard let last = state.lastBeat, ContinuousClock.now - last < configuration.deadAfter else { return true }
            return state.serving.contains(node)
        }
    }

    /// Whether `node` serves games, reading afresh before saying no when the last beat is more than a
    /// moment old: a node that joined since (a new node, one restarted) must not lose the games it
    /// creates to a node that has not yet heard of it.
    func isServingNow(_ node: String) async -> Bool {
        if isServing(node) { return true }
        let fresh = state.withLockedValue { state in state.lastBeat.map { ContinuousClock.now - $0 < .milliseconds(250) } ?? false }
        if !fresh { await beat() }
        return isServing(node)
    }

    /// The nodes that serve games, as the last beat read them; nil when no beat was read lately (the
    /// database is away), so who is alive is not known.
    var servingNodes: Set<String>? {
        state.withLockedValue { state in
            guard let last = state.lastBeat, ContinuousClock.now - last < configuration.deadAfter else { return nil }
            return state.serving
        }
    }

    /// Whether this node is draining (it serves what it has until its clients leave, and takes nothing).
    var isDraining: Bool { state.withLockedValue { $0.isDraining } }

    /// Records that this node is alive and reads which nodes are. False when the database could not
    /// be reached (the last reading stands, and ages).
    @discardableResult
    func beat() async -> Bool {
        let draining = isDraining
        do {
            let (peers, stillMine) = try await store.beat(incarnation: incarnation, draining: draining, deadAfter: configuration.deadAfter)
            if !stillMine {
                logger.error(
                    "Another process took this node's name: two nodes named \(name) ignore each other's changes. Give each node a name of its own (--node-name).")
            }
            state.withLockedValue { state in
                state.serving = Set(peers.filter { !$0.isDraining }.map(\.name))
                state.lastBeat = .now
            }
            // What the other nodes listen to is all this node announces on.
            store.recordWatchedElsewhere(Set(peers.filter { $0.name != name }.flatMap(\.watching)))
            return true
        } catch {
            logger.warning("Could not beat as a node of the cluster", metadata: ["cause": "\(error.reason)"])
            return false
        }
    }

    /// Marks this node draining (it takes no new clients from now on); false when it already was.
    func startDraining() -> Bool {
        state.withLockedValue { state in
            defer { state.isDraining = true }
            return !state.isDraining
        }
    }

    /// Another node let its games go: it serves nothing more (until it beats as up again).
    func released(by node: String) {
        _ = state.withLockedValue { $0.serving.remove(node) }
    }

    /// Drains: the other nodes stop counting on this one at once, and every game it serves is let go,
    /// for whichever node its players reconnect to.
    func drain() async {
        _ = startDraining()
        await beat()
        do {
            let released = try await store.releaseGames()
            logger.info("Draining: let go of this node's games", metadata: ["games": "\(released)"])
        } catch {
            logger.warning("Draining: could not let go of this node's games (other nodes take them once it stops beating)", metadata: ["cause": "\(error.reason)"])
        }
    }

    /// This node stopped.
    func leave() async {
        await store.leave(incarnation: incarnation)
    }

    /// How a claim went.
    enum Claim: Sendable, Equatable {
        /// The game is served here now, or by the node that took it first.
        case home(GameHome)
        case gone
        /// The database could not be asked; nothing changed.
        case failed
    }

    /// Makes this node the one that serves game `id`, if it is still served by `seen` (nil: none).
    func claim(_ kind: GameKind, id: String, seen: String?) async -> Claim {
        guard !isDraining else { return .failed }
        do {
            switch try await store.claimGame(kind.name, id: id, seen: seen) {
            case .gone: return .gone
            case .servedBy(let node?) where node == name: return .home(.here)
            case .servedBy(let node?): return .home(.elsewhere(node))
            case .servedBy(nil): return .home(.unclaimed)
            }
        } catch {
            logger.warning("Could not take a game on", metadata: ["kind": "\(kind)", "id": "\(id)", "cause": "\(error.reason)"])
            return .failed
        }
    }

    /// What this node makes of a game's stored `servedBy`: served here, or by another node that is
    /// serving; nil when it needs a node (none, or its node is gone or draining).
    func home(servedBy node: String?) async -> GameHome? {
        guard let node else { return nil }
        if node == name { return .here }
        return await isServingNow(node) ? .elsewhere(node) : nil
    }

    // MARK: Watching games another node serves

    /// Starts hearing `bucket` (a game another node serves has a watcher here now), and returns once
    /// it is heard — and every other node knows it and announces on it (they read it with their next
    /// beat, at most a second or two: so the first watcher of a bucket waits that long, the next ones
    /// not at all); true when it was not heard before (the game must then be read afresh).
    func watch(_ bucket: Int) async -> Bool {
        let (added, all) = state.withLockedValue { state -> (Bool, Set<Int>) in
            state.recentlyWatched[bucket] = .now
            return (state.watched.insert(bucket).inserted, state.watched)
        }
        guard added else { return false }
        await store.watch(all)
        // Every node not yet taken for dead is waited for: one whose beat is late because its machine
        // is busy would otherwise be skipped, and go on not announcing what is watched here.
        let known = await store.recordWatching(
            all, incarnation: incarnation, beating: configuration.deadAfter, timeout: configuration.deadAfter + configuration.heartbeat)
        if !known {
            logger.warning("Not every node confirmed it heard what this node watches: a watcher here may miss a version until the next")
        }
        return true
    }

    /// Hears exactly the buckets of the games watched here that another node serves (`needed`, as the
    /// last review found them) — and those a new watcher asked for since, which the review may not have
    /// seen.
    func rewatch(_ needed: Set<Int>) async {
        let (changed, all) = state.withLockedValue { state -> (Bool, Set<Int>) in
            let now = ContinuousClock.now
            state.recentlyWatched = state.recentlyWatched.filter { now - $0.value < .seconds(5) }
            let wanted = needed.union(state.recentlyWatched.keys)
            defer { state.watched = wanted }
            return (wanted != state.watched, wanted)
        }
        guard changed else { return }
        await store.watch(all)
        // Fewer buckets (a watcher left): the others may go on announcing on them a while, harmlessly.
        _ = await store.recordWatching(all, incarnation: incarnation, beating: configuration.heartbeat, timeout: .zero)
    }
}
