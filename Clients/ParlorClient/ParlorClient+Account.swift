import NIOHTTP1
import ParlorWire

extension ParlorClient {
    /// Makes the identity this client is signed in as (an anonymous one, with its profile, history and
    /// friends) the account's that `jwt` names, once: from then on the account signs in as it on every
    /// device. Refused with `ACCOUNT_ALREADY_LINKED` when the account already has its own identity, and
    /// `ALREADY_LINKED` when this identity is another account's.
    public func linkAccount(jwt: String) async throws(ParlorClientError) -> LinkAccountResult {
        try await call(Operation.linkAccount, LinkAccountArguments(jwt: jwt))
    }

    /// The largest export read: a player's data is a few kilobytes of JSON and at most one avatar
    /// (2 MiB, a third more in base64).
    public static let maxExportBytes = 16 * 1024 * 1024

    /// Everything the server holds about the signed-in user (`GET /users/me/export`): one JSON document,
    /// their avatar inside it in base64, as the server wrote it.
    public func exportAccount() async throws(ParlorClientError) -> [UInt8] {
        let response = try await accountRequest(.GET, path: "/users/me/export", body: [], maxResponseBytes: Self.maxExportBytes)
        return try response.bytes(operation: "the export")
    }

    /// Deletes the signed-in user's account (`DELETE /users/me`), for good: their profile, friends,
    /// avatar, uploads, settings and identity; the games others played with them stay, with them shown
    /// as "deleted player". Refused with `LEAVE_GAMES_FIRST` while they have a seat in a game being
    /// played. This client forgets the deleted identity's token.
    public func deleteAccount() async throws(ParlorClientError) -> DeleteAccountResult {
        let body = Array((try? WireJSON.encode(DeleteAccountBody())) ?? [])
        let response = try await accountRequest(.DELETE, path: "/users/me", body: body, maxResponseBytes: HTTPExchange.maxResponseBytes)
        let result = try response.decode(DeleteAccountResult.self, operation: "deleting the account")
        try? configuration.tokenStore.setToken(nil, for: configuration.tokenKey)
        return result
    }

    private func accountRequest(
        _ method: HTTPMethod, path: String, body: [UInt8], maxResponseBytes: Int
    ) async throws(ParlorClientError) -> HTTPExchange.Response {
        _ = try await currentUserID()
        // Signed in with an account, the account's JWT is the bearer; else the identity's stored token.
        let token: String
        if let provider = configuration.tokenProvider {
            token = try await accountToken(provider)
        } else if let stored = configuration.tokenStore.token(for: configuration.tokenKey) {
            token = stored
        } else {
            throw .notConnected(reason: "not signed in yet")
        }
        return try await HTTPExchange.perform(
            method, path: path, to: configuration.server, tls: configuration.webSocket.tls,
            headers: [("Authorization", "Bearer \(token)"), ("Content-Type", "application/json")], body: body,
            timeout: configuration.uploadTimeout, maxResponseBytes: maxResponseBytes)
    }
}
