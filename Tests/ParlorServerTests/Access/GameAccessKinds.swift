import Foundation
import ParlorTestSupport
import Testing
@testable import ParlorAuth
@testable import ParlorServer

/// The four kinds of game as the access tests drive them over the wire: how each is created (with the
/// access arguments every create accepts), joined (with an invitation, when given) and watched.
struct AccessKind: Sendable, CustomTestStringConvertible {
    let name: String
    let create: @Sendable (_ host: JSONConnection, _ access: [String: Any]) async throws -> String
    let join: @Sendable (_ player: JSONConnection, _ code: String, _ access: [String: Any]) async throws -> [String: Any]
    let watch: @Sendable (_ viewer: JSONConnection, _ code: String) async throws -> [String: Any]
    /// Who the game's public view names as its host.
    let hostInView: @Sendable (_ view: [String: Any]) -> String?

    var testDescription: String { name }

    static let all: [AccessKind] = [rummy, word, darts, quiz]

    static func configure(_ configuration: inout ServerConfiguration) {
        LobbyFixture.configure(&configuration)
        QuizWire.configure(&configuration)
        configuration.auth = AuthConfiguration(mode: .optional, issuers: [AccountSignInTests.supabaseIssuer()])
    }

    static let rummy = AccessKind(
        name: "rummy",
        create: { host, access in
            let reply = try await host.call(
                "createRoom", ["pointLimit": 100, "pointValue": 25, "playerCount": 4, "playerName": "Ann"].merging(access) { $1 })
            return try #require((reply.result?["room"] as? [String: Any])?["id"] as? String, "\(reply)")
        },
        join: { player, code, access in try await player.call("joinRoom", ["code": code, "playerName": "Bo"].merging(access) { $1 }) },
        watch: { viewer, code in try await viewer.call("observeRoom", ["code": code]) },
        hostInView: { view in
            ((view["players"] as? [[String: Any]])?.first { $0["isModerator"] as? Bool == true })?["id"] as? String
        })

    static let word = AccessKind(
        name: "word-lobby",
        create: { host, access in
            let reply = try await host.call("createLobby", ["user": LobbyFixture.user("Ann")].merging(access) { $1 })
            return try #require(reply.result?["lobbyCode"] as? String, "\(reply)")
        },
        join: { player, code, access in
            try await player.call("joinLobby", ["lobbyCode": code, "user": LobbyFixture.user("Bo")].merging(access) { $1 })
        },
        watch: { viewer, code in try await viewer.call("watchLobby", ["lobbyCode": code]) },
        hostInView: { $0["creator"] as? String })

    static let darts = AccessKind(
        name: "darts",
        create: { host, access in
            let reply = try await host.call("createMatch", ["gameType": "301", "playerName": "Ann"].merging(access) { $1 })
            return try #require((reply.result?["match"] as? [String: Any])?["id"] as? String, "\(reply)")
        },
        join: { player, code, access in try await player.call("joinMatch", ["code": code, "playerName": "Bo"].merging(access) { $1 }) },
        watch: { viewer, code in try await viewer.call("observeMatch", ["code": code]) },
        hostInView: { $0["hostId"] as? String })

    static let quiz = AccessKind(
        name: "photo-quiz",
        create: { host, access in
            let reply = try await host.call("createQuiz", ["playerName": "Ann"].merging(access) { $1 })
            return try #require((reply.result?["quiz"] as? [String: Any])?["code"] as? String, "\(reply)")
        },
        join: { player, code, access in try await player.call("joinQuiz", ["code": code, "playerName": "Bo"].merging(access) { $1 }) },
        watch: { viewer, code in try await viewer.call("observeQuiz", ["code": code]) },
        hostInView: { $0["hostId"] as? String })

    /// The newest view `sub` delivers with a version of at least `version`.
    static func view(_ viewer: JSONConnection, sub: Int, atLeast version: Int) async throws -> [String: Any] {
        while true {
            let event = try await viewer.nextEvent(sub: sub)
            if let data = event["data"] as? [String: Any], (data["version"] as? Int ?? 0) >= version { return data }
        }
    }

    /// The access operations' arguments for a game of this kind.
    func args(_ code: String, _ more: [String: Any] = [:]) -> [String: Any] {
        ["code": code, "kind": name].merging(more) { $1 }
    }
}
