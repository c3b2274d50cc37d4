import Foundation
import ParlorTestSupport
import Testing
import WebSocketCore
@testable import ParlorServer

/// The operator's live view over the wire: `/admin/api/…` refuses anyone without the admin token,
/// counts what is really there, and its two actions reach the people they concern with the reason.
@Suite struct AdminAPITests {
    static let token = "operator-secret-0123456789"

    static func admin(_ parlor: ParlorHarness, _ method: String, _ path: String, body: [String: Any]? = nil, token: String? = token, port: Int? = nil)
        async throws -> RawHTTP.Response
    {
        let data = try body.map { try JSONSerialization.data(withJSONObject: $0) }
        return try await RawHTTP.exchange(port: port ?? parlor.port, method: method, path: "/admin/api/\(path)", body: data, token: token)
    }

    static func object(_ response: RawHTTP.Response) throws -> [String: Any] {
        try #require(response.body as? [String: Any], "not a JSON object: \(response.text)")
    }

    @Test func withoutTheTokenOrWithAWrongOneTheAPIIsRefusedOnBothPorts() async throws {
        try await withParlor(configure: {
            $0.admin.token = Self.token
            $0.admin.port = 0
        }) { parlor in
            let adminPort = try #require(try await parlor.server.adminAddress()?.port)
            for port in [parlor.port, adminPort] {
                for path in ["overview", "connections", "games/rummy/ABCDEF"] {
                    let anonymous = try await Self.admin(parlor, "GET", path, token: nil, port: port)
                    #expect(anonymous.status == 401 && anonymous.headers["www-authenticate"] == "Bearer")
                    #expect((try Self.object(anonymous)["error"] as? [String: Any])?["code"] as? String == "UNAUTHENTICATED")
                    for wrong in [Self.token + "x", "operator-secret-012345678", "", try await QuotaTests.signIn(parlor)] {
                        #expect(try await Self.admin(parlor, "GET", path, token: wrong, port: port).status == 401)
                    }
                }
                let close = try await Self.admin(parlor, "POST", "games/rummy/ABCDEF/close", body: ["reason": "x"], token: "wrong", port: port)
                #expect(close.status == 401, "an action is refused before anything is looked up")
                #expect(try await Self.admin(parlor, "GET", "overview", port: port).status == 200)
                // The page itself loads without a token; it shows nothing until one is pasted.
                let page = try await RawHTTP.exchange(port: port, method: "GET", path: "/admin")
                #expect(page.status == 200 && page.text.contains("/web/js/admin.js"))
                #expect(try await RawHTTP.exchange(port: port, method: "GET", path: "/web/js/admin.js").status == 200)
            }
        }
    }

    @Test func withoutAnyTokenConfiguredTheAPIRefusesEveryone() async throws {
        try await withParlor { parlor async throws in
            #expect(try await Self.admin(parlor, "GET", "overview", token: nil).status == 401)
            #expect(try await Self.admin(parlor, "GET", "overview", token: "").status == 401)
            #expect(try await RawHTTP.exchange(port: parlor.port, method: "GET", path: "/metrics").status == 200, "/metrics stays as it was")
        }
        try await withParlor(configure: { $0.admin.pageToken = Self.token }) { parlor async throws in
            #expect(try await Self.admin(parlor, "GET", "overview").status == 200, "the token made at start-up opens it")
            #expect(try await RawHTTP.exchange(port: parlor.port, method: "GET", path: "/metrics").status == 200)
        }
    }

    @Test func theFiguresMatchAKnownSetOfGames() async throws {
        try await withParlor(configure: {
            $0.admin.token = Self.token
            LobbyFixture.configure(&$0)
        }) { parlor in
            try await parlor.connect { ann in
                try await parlor.connect { bo in
                    let first = try await RoomFlowTests.seat(ann, [bo])
                    let second = try await RoomFlowTests.seat(bo, [])
                    let lobbyCode = try await LobbyFixture.create(ann).code
                    let sub = try #require(try await ann.call("observeRoom", ["code": first]).result?["subscription"] as? Int)
                    _ = try await ann.nextEvent(sub: sub)

                    let overview = try Self.object(try await Self.admin(parlor, "GET", "overview"))
                    #expect(overview["connections"] as? Int == 2)
                    #expect(overview["connectedUsers"] as? Int == 2)
                    let games = try #require(overview["games"] as? [String: [String: Int]])
                    #expect(games["rummy"] == ["waiting": 2, "playing": 0, "finished": 0])
                    #expect(games["word-lobby"]?.values.reduce(0, +) == 1)
                    #expect(games["darts"]?.values.reduce(0, +) == 0)
                    #expect(overview["truncated"] as? Bool == false)
                    let list = try #require(overview["list"] as? [[String: Any]])
                    #expect(Set(list.compactMap { $0["code"] as? String }) == [first, second, lobbyCode])
                    let listed = try #require(list.first { $0["code"] as? String == first })
                    #expect(listed["kind"] as? String == "rummy" && listed["phase"] as? String == "waiting")
                    #expect(listed["version"] as? Int == 2 && listed["subscribers"] as? Int == 1)
                    let members = try #require(listed["members"] as? [[String: Any]])
                    #expect(members.map { $0["userId"] as? String } == [ann.userId, bo.userId])
                    #expect(members.allSatisfy { $0["connected"] as? Bool == true })
                    let rates = try #require(overview["rates"] as? [String: Any])
                    #expect(rates["operationsPerSecond"] is Double || rates["operationsPerSecond"] is Int)
                    #expect(rates["latencyP99Seconds"] is Double, "requests were answered: their latency is known")

                    let detail = try Self.object(try await Self.admin(parlor, "GET", "games/rummy/\(first)"))
                    #expect((detail["game"] as? [String: Any])?["code"] as? String == first)
                    #expect((detail["view"] as? [String: Any])?["id"] as? String == first, "the view is the room as its players see it")

                    let connections = try Self.object(try await Self.admin(parlor, "GET", "connections"))
                    #expect(connections["total"] as? Int == 2)
                    let open = try #require(connections["connections"] as? [[String: Any]])
                    #expect(Set(open.compactMap { $0["userId"] as? String }) == Set([ann.userId, bo.userId].compactMap { $0 }))
                    #expect(open.first { $0["userId"] as? String == ann.userId }?["subscriptions"] as? Int == 1)
                }
            }
            await eventually {
                (try? Self.object(try await Self.admin(parlor, "GET", "overview"))["connections"] as? Int) == 0
            }
        }
    }

    @Test func unknownGamesKindsConnectionsAndBadReasonsAreTypedErrors() async throws {
        try await withParlor(configure: { $0.admin.token = Self.token }) { parlor in
            #expect(try await Self.admin(parlor, "GET", "games/rummy/ZZZZZZ").status == 404)
            #expect(try await Self.admin(parlor, "GET", "games/chess/ZZZZZZ").status == 404)
            #expect(try await Self.admin(parlor, "GET", "games/rummy/!!").status == 400)
            #expect(try await Self.admin(parlor, "POST", "connections/999/disconnect", body: ["reason": "spam"]).status == 404)
            #expect(try await Self.admin(parlor, "POST", "connections/abc/disconnect", body: ["reason": "spam"]).status == 404)
            #expect(try await Self.admin(parlor, "GET", "nothing").status == 404)
            #expect(try await Self.admin(parlor, "DELETE", "overview").status == 405)
            try await parlor.connect { ann in
                let code = try await RoomFlowTests.seat(ann, [])
                for (body, fragment) in [
                    (["reason": ""], "empty"), (["reason": "   "], "empty"), (["reason": String(repeating: "é", count: 61)], "120 bytes"),
                    (["reason": "two\nlines"], "one line"), (["why": "no"], "reason"),
                ] {
                    let refused = try await Self.admin(parlor, "POST", "games/rummy/\(code)/close", body: body)
                    #expect(refused.status == 400)
                    let error = try #require(try Self.object(refused)["error"] as? [String: Any])
                    #expect(error["code"] as? String == "BAD_REQUEST")
                    #expect((error["message"] as? String)?.contains(fragment) == true, "\(error)")
                }
                #expect(try await ann.call("getRoom", ["code": code]).errorCode == nil, "the room survived every refusal")
            }
        }
    }

    @Test func closingAGameTellsItsMembersWhyAndRemovesIt() async throws {
        try await withParlor(configure: { $0.admin.token = Self.token }) { parlor in
            try await parlor.connect { ann in
                try await parlor.connect { bo in
                    let code = try await RoomFlowTests.seat(ann, [bo])
                    let sub = try #require(try await bo.call("observeRoom", ["code": code]).result?["subscription"] as? Int)
                    _ = try await bo.nextEvent(sub: sub)
                    let closed = try await Self.admin(parlor, "POST", "games/rummy/\(code)/close", body: ["reason": "The venue is closing"])
                    #expect(closed.status == 204)
                    let event = try await bo.nextEvent(sub: sub)
                    #expect(event["event"] as? String == "closed")
                    #expect((event["data"] as? [String: Any])?["reason"] as? String == "The venue is closing")
                    let gone = try await bo.nextEvent(sub: sub)
                    #expect(gone["event"] as? String == "room" && gone["data"] is NSNull)
                    #expect(try await bo.nextEvent(sub: sub)["event"] as? String == "end")
                    #expect(try await ann.call("getRoom", ["code": code]).errorCode == "ROOM_NOT_FOUND")
                    #expect(try await Self.admin(parlor, "GET", "games/rummy/\(code)").status == 404)
                    #expect(try await Self.admin(parlor, "POST", "games/rummy/\(code)/close", body: ["reason": "again"]).status == 404)
                    let overview = try Self.object(try await Self.admin(parlor, "GET", "overview"))
                    #expect((overview["games"] as? [String: [String: Int]])?["rummy"]?.values.reduce(0, +) == 0)
                    // The code is free again and the quota place is given back.
                    _ = try await RoomFlowTests.seat(ann, [])
                }
            }
        }
    }

    @Test func disconnectingAClientSendsTheReasonInTheCloseFrame() async throws {
        try await withParlor(configure: { $0.admin.token = Self.token }) { parlor in
            try await parlor.connect { ann in
                try await parlor.connect { bo in
                    let connections = try Self.object(try await Self.admin(parlor, "GET", "connections"))
                    let open = try #require(connections["connections"] as? [[String: Any]])
                    let id = try #require(open.first { $0["userId"] as? String == bo.userId }?["id"] as? Int)
                    let answer = try await Self.admin(parlor, "POST", "connections/\(id)/disconnect", body: ["reason": "Flooding the table"])
                    #expect(answer.status == 204)
                    let status = await bo.webSocket.closeStatus
                    #expect(status.code == .policyViolation && status.reason == "Flooding the table")
                }
                #expect(try await ann.call("getCatalog").errorCode == nil, "the other client stays connected")
                await eventually {
                    (try? Self.object(try await Self.admin(parlor, "GET", "connections"))["total"] as? Int) == 1
                }
            }
        }
    }

    @Test func theAPICountsAgainstItsAddressRateLikeAnyRequest() async throws {
        try await withParlor(configure: {
            $0.admin.token = Self.token
            $0.limits.addressRequestBurst = 3
            $0.limits.addressRequestsPerSecond = RateLimitTests.noRefill
        }) { parlor in
            var statuses: [Int] = []
            var retryAfter: String?
            for _ in 0..<5 {
                let response = try await Self.admin(parlor, "GET", "overview")
                statuses.append(response.status)
                retryAfter = retryAfter ?? response.headers["retry-after"]
            }
            #expect(statuses.prefix(3).allSatisfy { $0 == 200 } && statuses.last == 429, "\(statuses)")
            #expect(retryAfter != nil)
            #expect(try await Self.admin(parlor, "GET", "overview", token: "wrong").status == 429, "guessing tokens is limited too")
        }
    }

    @Test func theListIsBoundedAndSaysSo() async throws {
        try await withParlor(configure: {
            $0.admin.token = Self.token
            $0.limits.maxGamesPerUser = 1_000
            $0.limits.requestBurst = 10_000
            $0.limits.addressRequestBurst = 10_000
        }) { parlor in
            try await parlor.connect { ann in
                for _ in 0...AdminAPI.listLimit {
                    let created = try await ann.call("createRoom", QuotaTests.room)
                    #expect(created.errorCode == nil)
                }
                let overview = try Self.object(try await Self.admin(parlor, "GET", "overview"))
                #expect((overview["list"] as? [Any])?.count == AdminAPI.listLimit)
                #expect(overview["truncated"] as? Bool == true)
                #expect((overview["games"] as? [String: [String: Int]])?["rummy"]?["waiting"] == AdminAPI.listLimit + 1)
            }
        }
    }
}
