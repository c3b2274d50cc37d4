import Foundation
import ParlorTestSupport
import Testing
@testable import ParlorServer

/// A signed-in user of the darts app's REST routes.
struct AppUser: Sendable {
    let id: String
    let token: String
}

extension ParlorHarness {
    /// A new anonymous user, over `POST /session`.
    func signUp() async throws -> AppUser {
        let session = try #require(try await http("POST", "/session").1 as? [String: Any])
        return AppUser(id: try #require(session["userId"] as? String), token: try #require(session["token"] as? String))
    }

    /// A new user with a profile.
    func member(_ handle: String, _ name: String, nickname: String? = nil) async throws -> AppUser {
        let user = try await signUp()
        var body: [String: Any] = ["handle": handle, "display_name": name]
        if let nickname { body["nickname"] = nickname }
        let (status, created) = try await http("POST", "/users", body: body, token: user.token)
        #expect(status == 201, "\(String(describing: created))")
        return user
    }

    /// Two members who are friends.
    func friends(_ a: AppUser, _ b: AppUser) async throws {
        let (status, request) = try await http("POST", "/friends", body: ["addressee_id": b.id], token: a.token)
        #expect(status == 201, "\(String(describing: request))")
        let id = try #require((request as? [String: Any])?["id"] as? String)
        #expect(try await http("PUT", "/friends/\(id)", body: ["status": "accepted"], token: b.token).0 == 200)
    }

    /// A request with a raw body (not JSON: an image), answered in full.
    func send(
        _ method: String, _ path: String, bytes: [UInt8]? = nil, contentType: String = "application/octet-stream", token: String? = nil,
        headers: [(String, String)] = []
    ) async throws -> RawHTTP.Response {
        try await RawHTTP.exchange(
            port: port, method: method, path: path, body: bytes.map { Data($0) }, token: token, contentType: contentType, headers: headers)
    }
}

/// The `error` of an HTTP answer.
func errorCode(_ body: Any?) -> String? {
    ((body as? [String: Any])?["error"] as? [String: Any])?["code"] as? String
}

/// Test configuration for account flows: many requests from one user and one address in a moment.
func accountLimits(_ configuration: inout ServerConfiguration) {
    configuration.limits.requestBurst = 10_000
    configuration.limits.requestsPerSecond = 10_000
    configuration.limits.addressRequestBurst = 100_000
    configuration.limits.addressRequestsPerSecond = 100_000
}
