import Foundation
import Logging
import NIOCore
import NIOHTTP1
import ParlorMedia
import ParlorRules
import ParlorWire
import WebSocketCore

/// A player's own data: `GET /users/me/export` (everything Parlor holds about the caller, as one JSON
/// document with their files inside) and `DELETE /users/me` (their account gone, the games others played
/// with them kept, with them as "deleted player"). It names no game: live games are the kernel's
/// `HostedGame`s, found by kind.
struct PlayerData: Sendable {
    /// What a client sends to delete its account: `{"confirm": "DELETE"}` (or `?confirm=DELETE`).
    static let confirmation = DeleteAccountBody.confirmation
    /// The export's `format`, and its version, for whoever reads an export years later.
    static let format = "parlor-account-export"
    static let formatVersion = 1
    /// The close (1008) a deleted account's open connections get.
    static let closeReason = "ACCOUNT_DELETED: this account was deleted"

    let accounts: AccountsService
    let games: [any HostedGame]
    /// Closes every connection of the user on this node (the deleted account's).
    let disconnect: @Sendable (UserID) -> Int

    var store: any ParlorStore { accounts.store }
    var logger: Logger { accounts.logger }

    var routes: [HTTPRoute] {
        [
            HTTPRoute(.GET, "/users/me/export") { _, user throws(WireError) in
                try await export(of: HTTPRoutes.signedIn(user))
            },
            HTTPRoute(.DELETE, "/users/me") { request, user throws(WireError) in
                try Self.checkConfirmation(request)
                return HTTPRoutes.json(.ok, try await delete(HTTPRoutes.signedIn(user)))
            },
        ]
    }

    // MARK: Export

    func export(of user: UserID) async throws(WireError) -> HTTPResponse {
        let data = try await logger.storing("read everything about \(user)") { () async throws(StoreError) in
            try await store.accountData(of: user)
        }
        var document: [String: Any] = [
            "format": Self.format, "formatVersion": Self.formatVersion, "exportedAt": accounts.clock.now.iso8601,
            "userId": user.rawValue,
        ]
        if let profile = data.profile {
            document["profile"] = try Self.object(try await accounts.view(profile))
        } else {
            document["profile"] = NSNull()
        }
        document["friends"] = try await friends(of: user, data.friendships)
        document["settings"] = data.settings.map { setting -> [String: Any] in ["name": setting.name, "value": Self.parsed(setting.json)] }
        document["identities"] = data.identities.map { ["issuer": $0.issuer, "subject": $0.subject] }
        document["history"] = data.history.map { entry -> [String: Any] in
            [
                "kind": entry.kind, "key": entry.key, "finishedAt": entry.finishedAt.iso8601, "game": Self.parsed(entry.state),
                "tally": Self.nullable(entry.tallyJSON.map(Self.parsed)),
            ]
        }
        document["uploads"] = data.uploads.map { upload -> [String: Any] in
            [
                "kind": upload.kind, "id": upload.id, "uploadedByYou": upload.uploader == user, "finishedAt": upload.finishedAt.iso8601,
                "game": Self.parsed(upload.state),
            ]
        }
        document["gameRecords"] = data.records.map { record -> [String: Any] in
            ["id": record.id, "kind": record.kind, "code": record.code, "finishedAt": Self.nullable(record.finishedAt?.iso8601)]
        }
        document["liveGames"] = data.liveGames.map { ["kind": $0.kind, "code": $0.code] }
        document["files"] = try await files(of: user)
        let body: Data
        do {
            body = try JSONSerialization.data(withJSONObject: document, options: [.sortedKeys, .withoutEscapingSlashes])
        } catch {
            throw WireError(.internal, "The export could not be written as JSON; nothing was changed.")
        }
        let headers: HTTPHeaders = [
            "Content-Type": "application/json",
            "Content-Disposition": "attachment; filename=\"parlor-export-\(user.rawValue).json\"",
            "Cache-Control": "no-store",
        ]
        return HTTPResponse(status: .ok, headers: headers, body: ByteBuffer(bytes: body))
    }

    /// Each request and friendship with the other user's id and name (as their profile has it now).
    private func friends(of user: UserID, _ rows: [FriendshipRecord]) async throws(WireError) -> [[String: Any]] {
        let others = rows.map { $0.requester == user ? $0.addressee : $0.requester }
        let profiles = try await logger.storing("read the profiles of \(user)'s friends") { () async throws(StoreError) in
            try await store.profiles(others)
        }
        let byUser = Dictionary(profiles.map { ($0.user, $0) }, uniquingKeysWith: { first, _ in first })
        return rows.map { row -> [String: Any] in
            let other = row.requester == user ? row.addressee : row.requester
            return [
                "id": row.id, "status": row.status.rawValue, "direction": row.requester == user ? "sent" : "received",
                "otherUser": [
                    "userId": other.rawValue, "handle": Self.nullable(byUser[other]?.handle),
                    "displayName": Self.nullable(byUser[other]?.displayName),
                ] as [String: Any],
                "createdAt": row.createdAt.iso8601, "updatedAt": row.updatedAt.iso8601,
            ]
        }
    }

    /// The user's files (their avatar: one, at most `Avatars.maxBytes`), in base64.
    private func files(of user: UserID) async throws(WireError) -> [[String: Any]] {
        let storage = accounts.avatars.storage
        let files = try await logger.storing("read the files of \(user)") { () async throws(StoreError) -> [(String, [UInt8])] in
            var files: [(String, [UInt8])] = []
            for name in try await storage.list(folder: user.rawValue).sorted() {
                if let bytes = try await storage.read(folder: user.rawValue, name: name) { files.append((name, bytes)) }
            }
            return files
        }
        return files.map { name, bytes -> [String: Any] in
            [
                "bucket": Avatars.bucket, "name": name, "path": "\(Avatars.bucket)/\(user.rawValue)/\(name)",
                "mediaType": ImageFormat.sniff(bytes)?.mediaType ?? "application/octet-stream", "bytes": bytes.count,
                "base64": Data(bytes).base64EncodedString(),
            ]
        }
    }

    private static func object(_ value: some Encodable) throws(WireError) -> Any {
        parsed(String(decoding: try EncodedJSON.encoding(value).bytes, as: UTF8.self))
    }

    /// A value of the document, or its null.
    private static func nullable(_ value: Any?) -> Any { value ?? NSNull() }

    /// Stored JSON as a value of the document (the text itself if it is not JSON).
    private static func parsed(_ json: String) -> Any {
        (try? JSONSerialization.jsonObject(with: Data(json.utf8), options: [.fragmentsAllowed])) ?? json
    }

    // MARK: Delete

    static func checkConfirmation(_ request: HTTPRouteRequest) throws(WireError) {
        var confirm = request.query["confirm"]
        if confirm == nil, request.request.body.readableBytes > 0 { confirm = try request.body(DeleteAccountBody.self).confirm }
        guard confirm == confirmation else {
            throw WireError(
                .invalidInput,
                "Deleting an account cannot be undone: send {\"confirm\": \"\(confirmation)\"} (or ?confirm=\(confirmation)) to confirm it.")
        }
    }

    /// Deletes the user's account: finished games still live that name them are closed (their history is
    /// already filed), a game still being played refuses it (LEAVE_GAMES_FIRST, naming each), then their
    /// files go, then everything the store holds in one transaction, then their connections.
    func delete(_ user: UserID) async throws(WireError) -> EncodedJSON {
        let data = try await logger.storing("read everything about \(user)") { () async throws(StoreError) in
            try await store.accountData(of: user)
        }
        try await closeFinished(data.liveGames, of: user)
        let storage = accounts.avatars.storage
        let files = try await accounts.avatars.locks.serialize(user) { () async throws(WireError) -> Int in
            try await logger.storing("remove the files of \(user)") { () async throws(StoreError) -> Int in
                let names = try await storage.list(folder: user.rawValue)
                for name in names { try await storage.remove(folder: user.rawValue, name: name) }
                return names.count
            }
        }
        var generator = SystemRandomNumberGenerator()
        let pseudonym = UserID.random(using: &generator)
        let outcome = try await logger.storing("delete the account of \(user)") { () async throws(StoreError) in
            try await store.deleteAccount(user, pseudonym: pseudonym, at: accounts.clock.now)
        }
        if case .inLiveGames(let live) = outcome { throw Self.leaveFirst(live) }
        let friends = data.friendships.map { $0.requester == user ? $0.addressee : $0.requester }
        await accounts.feeds.refresh(friends)
        let closed = disconnect(user)
        logger.notice("Deleted an account", metadata: ["user": "\(user)", "connections": "\(closed)"])
        return try EncodedJSON.encoding(DeleteAccountResult(
            userId: user, deleted: true, friendships: data.friendships.count, history: data.history.count,
            uploads: data.uploads.filter { $0.uploader == user }.count, files: files, identities: data.identities.count,
            settings: data.settings.count, connectionsClosed: closed))
    }

    /// Closes the finished games that still name the user; refuses when any is still being played.
    private func closeFinished(_ live: [LiveGameRef], of user: UserID) async throws(WireError) {
        var playing: [LiveGameRef] = []
        for ref in live {
            guard let host = games.first(where: { $0.kind.name == ref.kind }) else { continue }
            guard let (game, _) = try? await host.adminGame(code: ref.code, presence: accounts.presence) else { continue }
            if game.phase == GameStage.finished.rawValue {
                try? await host.close(code: ref.code, reason: "A player deleted their account; the game is in your history.")
            } else {
                playing.append(ref)
            }
        }
        if !playing.isEmpty { throw Self.leaveFirst(playing) }
    }

    static func leaveFirst(_ games: [LiveGameRef]) -> WireError {
        let list = games.map { "\($0.kind) \($0.code)" }.joined(separator: ", ")
        return WireError(
            .leaveGamesFirst,
            "You have a seat in \(games.count == 1 ? "a game" : "games") still being played: \(list). Leave \(games.count == 1 ? "it" : "them") (or let \(games.count == 1 ? "it" : "them") finish), then delete your account; nothing was deleted.")
    }
}
