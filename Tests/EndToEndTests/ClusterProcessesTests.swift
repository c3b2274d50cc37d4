import Foundation
import ParlorTestSupport
import Testing

/// Two real `parlor-server` processes on one throwaway PostgreSQL: a room's members connected to
/// different nodes, each watching the room and changing it at the same time. No change is lost, every
/// version is decided once, and each member is shown the versions in order, through the newest —
/// the other node's through its announcements. Skipped, saying why, only where PostgreSQL is not
/// installed.
@Suite(.enabled(if: TestPostgres.unavailableReason == nil, Comment(rawValue: TestPostgres.unavailableReason ?? "")))
struct ClusterProcessesTests {
    static let toggles = 15

    @Test func membersOnTwoNodesWriteTheSameRoomAndSeeEveryVersionInOrder() async throws {
        let postgres = try #require(try await TestPostgres.shared())
        let database = try await postgres.makeDatabase()
        let address = postgres.address(database)
        try await ServerProcess.with(["--postgres", address]) { a in
            try await ServerProcess.with(["--postgres", address]) { b in
                // The room is created on A after B started; Bo joins it on B.
                let (code, ann) = try await a.connect { host in
                    let reply = try await host.call("createRoom", ["pointLimit": 350, "pointValue": 10, "playerCount": 3, "playerName": "Host"])
                    let code = try #require((reply.result?["room"] as? [String: Any])?["id"] as? String, "\(reply)")
                    let ann = try await a.connect { ann in
                        #expect(try await ann.call("joinRoom", ["code": code, "playerName": "Ann"]).result != nil)
                        return try #require(ann.token)
                    }
                    return (code, ann)
                }
                let bo = try await b.connect { bo in
                    let joined = try await bo.call("joinRoom", ["code": code, "playerName": "Bo"])
                    #expect(joined.result != nil, "\(joined)")
                    return try #require(bo.token)
                }
                let versionQuery = "SELECT version FROM games WHERE id = '\(code)'"
                let before = try #require(Int(try await postgres.psql(versionQuery, database: database)))
                let newest = before + 2 * Self.toggles
                async let onA = Self.member(code, on: a, token: ann, through: newest)
                async let onB = Self.member(code, on: b, token: bo, through: newest)
                let (annSaw, boSaw) = try await (onA, onB)
                #expect(Set(annSaw.answered).isDisjoint(with: boSaw.answered), "no version was decided twice")
                for saw in [annSaw, boSaw] {
                    #expect(saw.answered == saw.answered.sorted(), "\(saw.answered)")
                    #expect(zip(saw.shown, saw.shown.dropFirst()).allSatisfy { $0 < $1 }, "shown in order, each once: \(saw.shown)")
                    #expect(saw.shown.last == newest, "\(saw.shown)")
                }
                #expect(Int(try await postgres.psql(versionQuery, database: database)) == newest, "every change is stored")
            }
        }
    }

    /// What one member answered and was shown.
    struct Seen: Sendable {
        var answered: [Int] = []
        var shown: [Int] = []
    }

    /// Watches the room and toggles ready, then reads the stream until it shows version `newest`.
    static func member(_ code: String, on node: ServerProcess, token: String, through newest: Int) async throws -> Seen {
        try await node.connect(token: token) { player in
            let observed = try await player.call("observeRoom", ["code": code])
            let sub = try #require(observed.result?["subscription"] as? Int, "\(observed)")
            var seen = Seen()
            for turn in 0..<toggles {
                let reply = try await player.call("setReady", ["roomCode": code, "playerId": try #require(player.userId), "ready": turn % 2 == 0])
                let result = try #require(reply.result, "\(reply)")
                seen.answered.append(try #require((result["room"] as? [String: Any] ?? result)["version"] as? Int, "\(result)"))
            }
            while seen.shown.last.map({ $0 < newest }) ?? true {
                let event = try await player.nextEvent(sub: sub, timeout: .seconds(15))
                seen.shown.append(try #require((event["data"] as? [String: Any])?["version"] as? Int, "\(event)"))
            }
            return seen
        }
    }
}
