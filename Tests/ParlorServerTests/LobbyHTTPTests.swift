import Foundation
import ParlorTestSupport
import Testing
@testable import ParlorServer

/// The seed's functions as Firebase callable functions: `POST /functions/{name}` with `{"data": …}`.
@Suite struct LobbyHTTPTests {
    static func call(_ parlor: ParlorHarness, _ name: String, _ data: [String: Any]?, token: String?) async throws -> (Int, [String: Any]) {
        let (status, body) = try await parlor.http("POST", "/functions/\(name)", body: data.map { ["data": $0] } ?? [:], token: token)
        return (status, try #require(body as? [String: Any], "no JSON body: \(String(describing: body))"))
    }

    @Test func aRoundThroughCallableFunctions() async throws {
        let clock = ManualClock()
        try await withParlor(clock: clock, configure: LobbyFixture.configure) { parlor in
            let session = { () async throws -> String in
                try #require((try await parlor.http("POST", "/session").1 as? [String: Any])?["token"] as? String)
            }
            let ann = try await session()
            let bo = try await session()

            let (createdStatus, created) = try await Self.call(parlor, "createLobby", ["user": LobbyFixture.user("Ann")], token: ann)
            #expect(createdStatus == 200)
            let result = try #require(created["result"] as? [String: Any])
            let lobbyId = try #require(result["lobbyId"] as? String)
            let code = try #require(result["lobbyCode"] as? String)
            let (_, joined) = try await Self.call(parlor, "joinLobby", ["lobbyCode": code, "user": LobbyFixture.user("Bo")], token: bo)
            #expect((joined["result"] as? [String: Any])?["lobbyId"] as? String == lobbyId)
            let (startStatus, started) = try await Self.call(parlor, "startGame", ["lobbyId": lobbyId, "gameId": "word-start-s"], token: ann)
            #expect(startStatus == 200 && started["result"] is NSNull)
            let (_, verdict) = try await Self.call(parlor, "submitWord", ["lobbyId": lobbyId, "word": "Sapphire"], token: bo)
            #expect(verdict["result"] as? [String: Any] as NSDictionary? == ["accepted": true, "word": "Sapphire"] as NSDictionary)
            let (_, rejected) = try await Self.call(parlor, "submitWord", ["lobbyId": lobbyId, "word": "sapphire"], token: bo)
            #expect((rejected["result"] as? [String: Any])?["reason"] as? String == "\"sapphire\" was already submitted.")

            // Errors in Firebase's shape and with its HTTP statuses.
            let (lateStatus, late) = try await Self.call(parlor, "joinLobby", ["lobbyCode": code, "user": LobbyFixture.user("Cy")], token: try await session())
            let lateError = try #require(late["error"] as? [String: Any])
            #expect(lateStatus == 400 && lateError["status"] as? String == "FAILED_PRECONDITION")
            #expect((lateError["details"] as? [String: Any])?["code"] as? String == "LOBBY_NOT_OPEN")
            let (notFoundStatus, notFound) = try await Self.call(parlor, "startGame", ["lobbyId": "nope"], token: ann)
            #expect(notFoundStatus == 404 && (notFound["error"] as? [String: Any])?["status"] as? String == "NOT_FOUND")
            #expect((notFound["error"] as? [String: Any])?["message"] as? String == "Lobby nope was not found.")
            let (deniedStatus, denied) = try await Self.call(parlor, "startGame", ["lobbyId": lobbyId], token: bo)
            #expect(deniedStatus == 403 && (denied["error"] as? [String: Any])?["status"] as? String == "PERMISSION_DENIED")
            let (anonStatus, anon) = try await Self.call(parlor, "createLobby", ["user": LobbyFixture.user("X")], token: nil)
            #expect(anonStatus == 401 && (anon["error"] as? [String: Any])?["status"] as? String == "UNAUTHENTICATED")
            let (noDataStatus, noData) = try await Self.call(parlor, "createLobby", nil, token: ann)
            #expect(noDataStatus == 400 && (noData["error"] as? [String: Any])?["status"] as? String == "INVALID_ARGUMENT")
            #expect((noData["error"] as? [String: Any])?["message"] as? String == "data is missing.")
            let (unknownStatus, unknown) = try await Self.call(parlor, "teleport", [:], token: ann)
            #expect(unknownStatus == 404 && (unknown["error"] as? [String: Any])?["status"] as? String == "NOT_FOUND")
            #expect(try await parlor.http("GET", "/functions/createLobby").0 == 405)

            // The catalog needs no token.
            let (catalogStatus, catalog) = try await Self.call(parlor, "getCatalog", ["since": 1], token: nil)
            #expect(catalogStatus == 200 && (catalog["result"] as? [String: Any])?["unchanged"] as? Bool == true)

            clock.advance(bySeconds: 90)
            // Leaving over HTTP; the last one out deletes the lobby.
            #expect(try await Self.call(parlor, "leaveLobby", ["lobbyId": lobbyId], token: ann).0 == 200)
            #expect(try await Self.call(parlor, "leaveLobby", ["lobbyId": lobbyId], token: bo).0 == 200)
            #expect(try await Self.call(parlor, "joinLobby", ["lobbyCode": code, "user": LobbyFixture.user("Bo")], token: bo).0 == 404)
        }
    }
}
