import Foundation
import ParlorTestSupport
import Testing
@testable import ParlorServer

/// Requests the server refuses at the edge, over the wire: repeated JSON keys anywhere (WebSocket
/// frames and HTTP bodies), and page sizes out of range.
@Suite struct RequestValidationTests {
    @Test func repeatedKeysInAFrameAreRefusedAndTheConnectionCarriesOn() async throws {
        try await withParlor { parlor in
            try await parlor.connect { ann in
                let frames = [
                    (#"{"id":1,"op":"createRoom","args":{"pointLimit":150,"pointValue":5,"playerCount":2,"playerName":"Ann","playerName":"Root"}}"#,
                     "args.playerName"),
                    (#"{"id":1,"op":"getRoom","op":"createRoom","args":{"code":"AAAAAA"}}"#, "op"),
                    (#"{"id":1,"op":"createLobby","args":{"user":{"username":"A","colorNumber":1,"emojiNumber":2,"\u0065mojiNumber":3}}}"#,
                     "args.user.emojiNumber"),
                ]
                for (frame, field) in frames {
                    try await ann.webSocket.send(text: frame)
                    let reply = try await ann.reply(to: 1)
                    #expect(reply.errorCode == "BAD_REQUEST", "\(frame)")
                    #expect(reply.errorMessage == "\(field) appears more than once; send each key once.")
                }
                #expect(parlor.services.host(RummyGame.self).count == 0)
                #expect(try await ann.call("createRoom", ["pointLimit": 150, "pointValue": 5, "playerCount": 2, "playerName": "Ann"]).result != nil)
            }
        }
    }

    @Test func repeatedKeysInHTTPBodiesAreRefused() async throws {
        try await withParlor { parlor in
            let (_, session) = try await parlor.http("POST", "/session")
            let token = try #require((session as? [String: Any])?["token"] as? String)
            let bodies = [
                ("/rooms", #"{"pointLimit":150,"pointValue":5,"pointValue":500,"playerCount":2,"playerName":"Ann"}"#, "pointValue"),
                ("/functions/createLobby", #"{"data":{"user":{"username":"A","colorNumber":1,"emojiNumber":2}},"data":{}}"#, "data"),
                ("/functions/createLobby", #"{"data":{"user":{"username":"A","username":"B","colorNumber":1,"emojiNumber":2}}}"#,
                 "data.user.username"),
                ("/session", #"{"token":"x","token":"y"}"#, "token"),
            ]
            for (path, body, field) in bodies {
                let (status, reply) = try await RawHTTP.send(
                    port: parlor.port, method: "POST", path: path, body: Data(body.utf8), token: token)
                #expect(status == 400, "\(path) \(body)")
                let error = try #require((reply as? [String: Any])?["error"] as? [String: Any])
                #expect(error["message"] as? String == "\(field) appears more than once; send each key once.")
            }
            #expect(parlor.services.host(RummyGame.self).count == 0)
            #expect(parlor.services.host(WordLobbyGame.self).count == 0)
        }
    }

    @Test func listGamesRefusesAPageSizeOutOfRange() async throws {
        try await withParlor { parlor in
            try await parlor.connect { ann in
                for limit in [0, -1, 101, 100_000] {
                    let reply = try await ann.call("listGames", ["limit": limit])
                    #expect(reply.errorCode == "INVALID_INPUT")
                    #expect(reply.errorMessage == "limit must be an integer from 1 to 100 (got \(limit)).")
                }
                #expect(try await ann.call("listGames", ["limit": 100]).result != nil)
                #expect(try await ann.call("listGames", ["limit": 1]).result != nil)
                let user = try #require(ann.userId)
                for (query, got) in [("0", "0"), ("-1", "-1"), ("100000", "100000"), ("ten", "\"ten\"")] {
                    let (status, body) = try await parlor.http("GET", "/users/\(user)/games?limit=\(query)", token: ann.token)
                    #expect(status == 400)
                    let error = try #require((body as? [String: Any])?["error"] as? [String: Any])
                    #expect(error["code"] as? String == "INVALID_INPUT")
                    #expect(error["message"] as? String == "limit must be an integer from 1 to 100 (got \(got)).")
                }
                #expect(try await parlor.http("GET", "/users/\(user)/games?limit=5", token: ann.token).0 == 200)
            }
        }
    }
}
