import Foundation
import ParlorTestSupport
import Testing
@testable import ParlorServer

/// The access arguments over HTTP as over the WebSocket — a private game created and joined with its
/// invitation by the REST routes — and the invitation's link, `/join/CODE?invite=…`, opening the app.
@Suite struct GameAccessHTTPTests {
    @Test func aPrivateMatchIsCreatedAndJoinedWithItsInvitationOverREST() async throws {
        try await withParlor(configure: AccessKind.configure) { parlor in
            func session() async throws -> String {
                let body = try #require(try await parlor.http("POST", "/session").1 as? [String: Any])
                return try #require(body["token"] as? String)
            }
            let ann = try await session()
            let bo = try await session()
            let (status, created) = try await parlor.http(
                "POST", "/darts", body: ["gameType": "301", "playerName": "Ann", "private": true, "spectators": "none"], token: ann)
            #expect(status == 201)
            let code = try #require(((created as? [String: Any])?["match"] as? [String: Any])?["id"] as? String)
            let invite = try await parlor.connect(token: ann) { annWS in
                let access = try #require(try await annWS.call("getGameAccess", ["code": code]).result)
                #expect(access["private"] as? Bool == true && access["spectators"] as? String == "none")
                return try #require(try await annWS.call("createInvite", ["code": code]).result?["invite"] as? String)
            }

            let refused = try await parlor.http("POST", "/darts/\(code)/players", body: ["playerName": "Bo"], token: bo)
            #expect(refused.0 == 403 && errorCode(refused.1) == "NOT_INVITED", "\(String(describing: refused.1))")
            let forged = try await parlor.http("POST", "/darts/\(code)/players", body: ["playerName": "Bo", "invite": "i1.1.AAAA"], token: bo)
            #expect(forged.0 == 403 && errorCode(forged.1) == "NOT_INVITED")
            let badType = try await parlor.http("POST", "/darts/\(code)/players", body: ["playerName": "Bo", "invite": 7], token: bo)
            #expect(badType.0 == 400 && errorCode(badType.1) == "BAD_REQUEST", "\(String(describing: badType.1))")
            let joined = try await parlor.http("POST", "/darts/\(code)/players", body: ["playerName": "Bo", "invite": invite], token: bo)
            #expect(joined.0 == 200, "\(String(describing: joined.1))")
        }
    }

    @Test func anInvitationsLinkIsTheAppsPage() async throws {
        try await withParlor { parlor in
            let page = try await RawHTTP.exchange(port: parlor.port, method: "GET", path: "/")
            let link = try await RawHTTP.exchange(port: parlor.port, method: "GET", path: "/join/3QX7K?invite=i1.1780086400.abc")
            #expect(link.status == 200 && link.headers["content-type"] == "text/html; charset=utf-8")
            #expect(link.headers["etag"] == page.headers["etag"] && link.text.contains("/web/js/app.js"))
            #expect(link.headers["referrer-policy"] == "no-referrer")
            // Only a code's shape: anything else under /join is not the page.
            for path in ["/join/", "/join/3QX7K/more", "/join/TOO-LONG-A-CODE", "/join/%3Cscript%3E"] {
                #expect(try await RawHTTP.exchange(port: parlor.port, method: "GET", path: path).status == 404, "\(path)")
            }
        }
    }
}
