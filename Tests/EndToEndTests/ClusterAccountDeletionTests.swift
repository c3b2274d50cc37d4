// Only with the PostgreSQL trait (scripts/test.sh builds the tests with it): see Package.swift.
#if PostgreSQL
import Foundation
import ParlorTestSupport
import Testing
import WebSocketCore

/// `DELETE /users/me` on one node of a cluster reaches every node: the deleted player's connection on
/// another node is closed (1008, ACCOUNT_DELETED) and nothing it sends is done; their token is refused
/// there at once; the other players on that node are untouched. Two real nodes on a throwaway
/// PostgreSQL (`ClusterHarness`).
@Suite(
    .serialized, .timeLimit(.minutes(3)),
    .enabled(if: ClusterHarness.unavailableReason == nil, Comment(rawValue: ClusterHarness.unavailableReason ?? "")))
struct ClusterAccountDeletionTests {
    static var room: [String: Any] { ["pointLimit": 100, "pointValue": 1, "playerCount": 2, "playerName": "Ann"] }

    @Test func aPlayerDeletedThroughOneNodeIsClosedAndRefusedOnAnother() async throws {
        try await ClusterHarness.with(nodes: 2) { cluster in
            let deleting = "http://127.0.0.1:\(cluster.node(0).port)"
            let other = cluster.node(1).url
            let (user, token) = try await WebSocketClient.connect(to: other) { annSocket in
                let ann = JSONConnection(annSocket)
                try await ann.hello()
                let user = try #require(ann.userId)
                let token = try #require(ann.token)
                try await WebSocketClient.connect(to: other) { boSocket in
                    let bo = JSONConnection(boSocket)
                    try await bo.hello()

                    let deleted = try await curl(["-X", "DELETE", "-H", "Authorization: Bearer \(token)", "\(deleting)/users/me?confirm=DELETE"])
                    #expect(deleted.status == 200, "\(deleted)")
                    let result = try JSONSerialization.jsonObject(with: Data(deleted.body.utf8)) as? [String: Any]
                    #expect(result?["connectionsClosed"] as? Int == 0, "she had no connection on the deleting node: \(deleted.body)")

                    // At once, she asks the other node for a room: it is never made.
                    try? await ann.sendJSON(["id": 7, "op": "createRoom", "args": Self.room])
                    let status = try await withTimeout(.seconds(20), "the other node closing the deleted player's connection") {
                        await annSocket.closeStatus
                    }
                    #expect(status.code == .policyViolation, "\(status)")
                    #expect(status.reason == "ACCOUNT_DELETED: this account was deleted", "\(status)")

                    // Bo, on the same node, plays on.
                    let bosRoom = try await bo.call("createRoom", Self.room)
                    #expect(bosRoom["result"] != nil, "\(bosRoom)")
                    #expect(boSocket.isActive)
                }
                return (user, token)
            }
            let games = try await cluster.postgres.psql("SELECT count(*) FROM games WHERE strpos(state, '\(user)') > 0", database: cluster.database)
            #expect(games == "0", "nothing she sent after the deletion was done")
            let refusal = try await WebSocketClient.connect(to: other) { ws in try await JSONConnection(ws).call("hello", ["token": token]).errorCode }
            #expect(refusal == "ACCOUNT_DELETED", "her token on the other node: \(String(describing: refusal))")
        }
    }

    /// A node that could not hear the others when the account was deleted (every node's listening
    /// connection cut by PostgreSQL just before the deletion, so its notice went to nobody) asks the
    /// store about its connected players once it listens again, and closes the deleted one.
    @Test func aNodeThatMissedTheNoticeClosesTheDeletedPlayerOnceItHearsAgain() async throws {
        try await ClusterHarness.with(nodes: 2) { cluster in
            let deleting = "http://127.0.0.1:\(cluster.node(0).port)"
            let other = cluster.node(1).url
            try await WebSocketClient.connect(to: other) { annSocket in
                let ann = JSONConnection(annSocket)
                try await ann.hello()
                let token = try #require(ann.token)

                let cut = try await cluster.postgres.psql(
                    "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE query ILIKE 'LISTEN%'", database: cluster.database)
                #expect(cut == "2", "each node's listening connection: \(cut)")
                let deleted = try await curl(["-X", "DELETE", "-H", "Authorization: Bearer \(token)", "\(deleting)/users/me?confirm=DELETE"])
                #expect(deleted.status == 200, "\(deleted)")

                let status = try await withTimeout(.seconds(20), "the other node closing the deleted player's connection once it listens again") {
                    await annSocket.closeStatus
                }
                #expect(status.code == .policyViolation, "\(status)")
                #expect(status.reason == "ACCOUNT_DELETED: this account was deleted", "\(status)")
            }
        }
    }
}
#endif
