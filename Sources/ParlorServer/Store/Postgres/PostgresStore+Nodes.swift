// Built only with the PostgreSQL trait (`swift build --traits PostgreSQL`): see Package.swift.
#if PostgreSQL
import Foundation
import Logging
import ParlorRules
import PostgresNIO

/// What one node of a cluster records in the shared database about itself and the games it serves:
/// its row in `nodes` (up, draining, its heartbeat), and `games.node`, which the front routes a game's
/// players by. None of it is a lock — every save stays version-checked — so a node that is wrong about
/// where a game is served costs speed, never a change.
extension PostgresStore: ClusterDatabase {
    /// Takes this node's name for this run (`incarnation`): refuses while another process beating
    /// under the same name is alive, which would make two nodes ignore each other's announcements. A
    /// name whose last beat is older than `deadAfter` (a node that died, or stopped cleanly) is taken
    /// over.
    func join(incarnation: String, deadAfter: Duration) async throws(StoreError) {
        let seconds = deadAfter.seconds
        let taken = try await transaction("Joining the cluster as node \(node)") { [node] connection, logger in
            try await connection.query("""
                INSERT INTO nodes (name, incarnation, state) VALUES (\(node), \(incarnation), 'up')
                ON CONFLICT (name) DO UPDATE SET incarnation = excluded.incarnation, state = 'up', started_at = now(), seen_at = now()
                WHERE nodes.state = 'gone' OR nodes.seen_at < now() - make_interval(secs => \(seconds))
                """, logger: logger)
            var current: String?
            for try await incarnation in try await connection.query("SELECT incarnation FROM nodes WHERE name = \(node)", logger: logger)
                .decode(String.self)
            {
                current = incarnation
            }
            return current != incarnation
        }
        if taken {
            throw StoreError(
                .unavailable,
                "Another node named \(node) is running on \(location) (it beat less than \(deadAfter) ago). Give each node a name of its own with --node-name.")
        }
    }

    /// The heartbeat: records that this node (this incarnation) is alive, and reads which nodes are,
    /// by the database's clock (so the nodes' clocks need not agree). False in `stillMine` when another
    /// process took this node's name meanwhile.
    func beat(incarnation: String, draining: Bool, deadAfter: Duration) async throws(StoreError) -> (peers: [ClusterPeer], stillMine: Bool) {
        let seconds = deadAfter.seconds
        let state = draining ? "draining" : "up"
        return try await transaction("Beating as node \(node)") { [node] connection, logger in
            let mine = try await Self.changes(
                "UPDATE nodes SET seen_at = now(), state = \(state) WHERE name = \(node) AND incarnation = \(incarnation)",
                on: connection, logger: logger)
            var peers: [ClusterPeer] = []
            for try await (name, state, watching) in try await connection.query(
                "SELECT name, state, watching FROM nodes WHERE state <> 'gone' AND seen_at >= now() - make_interval(secs => \(seconds))",
                logger: logger
            ).decode((String, String, [Int]).self) {
                peers.append(ClusterPeer(name: name, isDraining: state == "draining", watching: watching))
            }
            return (peers, mine == 1)
        }
    }

    /// Records the watch buckets this node listens to, and waits until every other node beating (one
    /// that beat within the last `beating`: a node that stopped is not waited for) has beaten since —
    /// so has read them, and announces on them: at most `timeout`. False when the database could not
    /// be asked, or a node did not beat in time.
    func recordWatching(_ buckets: Set<Int>, incarnation: String, beating: Duration, timeout: Duration) async -> Bool {
        let seconds = beating.seconds
        let sorted = buckets.sorted()
        // The time is read after the update has committed: a node whose beat began later reads it.
        guard (try? await execute(
            "Recording the buckets node \(node) watches",
            "UPDATE nodes SET watching = \(sorted)::integer[] WHERE name = \(node) AND incarnation = \(incarnation)")) != nil,
            let recorded = try? await read("Reading the database's clock", "SELECT now()", { row in try row.decode(Date.self) }).first
        else { return false }
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let behind = try? await read(
                "Waiting for the other nodes to hear what node \(node) watches",
                """
                SELECT count(*) FROM nodes WHERE name <> \(node) AND state <> 'gone'
                AND seen_at >= now() - make_interval(secs => \(seconds)) AND seen_at <= \(recorded)
                """
            ) { row in try row.decode(Int.self) }.first
            if behind == 0 { return true }
            try? await Task.sleep(for: .milliseconds(100))
        }
        return false
    }

    /// This node stopped: the others need not wait for its beat to go stale.
    func leave(incarnation: String) async {
        _ = try? await execute("Leaving the cluster", "UPDATE nodes SET state = 'gone' WHERE name = \(node) AND incarnation = \(incarnation)")
    }

    /// Makes this node the one that serves game `id` of `kind`, if it is still served by `seen` (nil:
    /// by none). A claim that takes is told to every node (`HomeChange.claimed`).
    func claimGame(_ kind: String, id: String, seen: String?) async throws(StoreError) -> DatabaseClaim {
        try await transaction("Taking \(kind) \(id) on node \(node)") { [node] connection, logger in
            let claimed = try await Self.changes(
                "UPDATE games SET node = \(node) WHERE kind = \(kind) AND id = \(id) AND node IS NOT DISTINCT FROM \(seen)",
                on: connection, logger: logger)
            if claimed == 1 {
                try await connection.query(
                    "SELECT pg_notify(\(ClusterChannel.homes), \(HomeChange.claimed(node: node, kind: kind, id: id).payload))", logger: logger)
                return .servedBy(node)
            }
            var found = DatabaseClaim.gone
            for try await current in try await connection.query("SELECT node FROM games WHERE kind = \(kind) AND id = \(id)", logger: logger)
                .decode(String?.self)
            {
                found = .servedBy(current)
            }
            return found
        }
    }

    /// Lets go of every game this node serves (it is draining): the node that next needs one takes it.
    /// Returns how many there were.
    @discardableResult
    func releaseGames() async throws(StoreError) -> Int {
        try await transaction("Letting go of node \(node)'s games") { [node] connection, logger in
            let released = try await Self.changes("UPDATE games SET node = NULL WHERE node = \(node)", on: connection, logger: logger)
            try await connection.query("SELECT pg_notify(\(ClusterChannel.homes), \(HomeChange.released(node: node).payload))", logger: logger)
            return released
        }
    }

    /// The games of `kind` this node serves (its own after a restart; none on a new node).
    func gamesServedHere(_ kind: GameKind) async throws(StoreError) -> [StoredGame] {
        let where_ = "\(location), table games"
        return try await read(
            "Loading the \(kind.plural) node \(node) serves",
            "SELECT id, code, version, state, schedule, record_id FROM games WHERE kind = \(kind.name) AND node = \(node) ORDER BY id COLLATE \"C\""
        ) { [node] row in
            let (id, code, version, state, schedule, record) = try row.decode((String, String, Int, String, String, String?).self)
            return StoredGame(
                kind: kind, id: id, code: code, version: version, state: .json(state), schedule: schedule, servedBy: node,
                record: record.map { GameRecordWrite(id: $0, steps: []) }, location: where_)
        }
    }

    /// Games no live node serves (their node died, or drained and nobody needed them since) that have
    /// not changed since `cutoff`: the expiry sweep takes them on, so they do not outlive their node
    /// for good. At most `limit`, the oldest first.
    func orphanedGames(servedBy live: [String], unchangedSince cutoff: Instant, limit: Int) async throws(StoreError) -> [(kind: String, id: String)] {
        try await read(
            "Looking for games no node serves",
            """
            SELECT kind, id FROM games WHERE (node IS NULL OR NOT (node = ANY(\(live)::text[]))) AND updated_at < \(cutoff.millisecondsSinceEpoch)
            ORDER BY updated_at LIMIT \(limit)
            """
        ) { row in
            let (kind, id) = try row.decode((String, String).self)
            return (kind, id)
        }
    }
}
#endif
