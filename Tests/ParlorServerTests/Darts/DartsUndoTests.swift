import ParlorTestSupport
import Testing
@testable import ParlorServer

/// `undoLastVisit`, a move added by its rules and its one declaration: the server answers it on the
/// WebSocket and at its declared route with no handler of its own.
@Suite struct DartsUndoServerTests {
    @Test func theLastVisitIsTakenBackOverTheWebSocketAndHTTP() async throws {
        try await withParlor { parlor in
            try await parlor.connect { ann in
                try await parlor.connect { bo in
                    let code = try await DartsWire.seat(ann, [bo])
                    _ = try await ann.call("startMatch", ["code": code])
                    _ = try await DartsWire.visit(ann, code, player: ann.userId!, "T20 T20 T20")
                    #expect(try await bo.call("undoLastVisit", ["code": code]).errorCode == "NOT_HOST")
                    let stale = try await ann.call("undoLastVisit", ["code": code, "visit": 7])
                    #expect(stale.errorCode == "INVALID_STATE" && stale.errorMessage == "Only the last visit (#1) can be undone; visit #7 is final.")
                    let undone = try #require(try await ann.call("undoLastVisit", ["code": code, "visit": 1]).result)
                    #expect(DartsWire.player(undone, 0)?["remaining"] as? Int == 301 && (undone["lastVisit"] as? [String: Any]) == nil)

                    _ = try await DartsWire.visit(ann, code, player: ann.userId!, "T20 T20 T20")
                    let (status, body) = try await parlor.http("DELETE", "/darts/\(code)/visits/last?visit=1", token: ann.token)
                    #expect(status == 200 && DartsWire.player(body as? [String: Any], 0)?["remaining"] as? Int == 301)
                }
            }
        }
    }
}
