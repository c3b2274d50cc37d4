import Foundation
import NIOConcurrencyHelpers
import Testing

/// Matches uploaded after being played offline (`POST /matches`), against the real parlor-server and
/// its SQLite store: an upload acknowledged before `kill -9` is there after the restart, at the version
/// acknowledged or a later one that was sent, whole — its turns counted, never a match without them.
@Suite(.serialized) struct UploadDurabilityTests {
    /// One phone: a signed-in user with a profile, uploading matches against a guest.
    private struct Phone: Sendable {
        let userId: String
        let token: String
    }

    /// What became of one match id: who uploaded it, the last version sent, and the last one the
    /// server acknowledged.
    private struct Versions: Sendable {
        let phone: Int
        let index: Int
        var sent = 0
        var acknowledged = 0
    }

    /// Each version of a match changes its `updated_at` and its duration, so the stored one is known.
    private static func updatedAt(version: Int) -> String { "2026-10-12T00:0\(version):00Z" }
    /// The same instant as the server writes it.
    private static func storedUpdatedAt(version: Int) -> String { "2026-10-12T00:0\(version):00.000Z" }
    private static func duration(version: Int) -> Int { 1000 + version }

    private static func json(_ object: Any) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
    }

    /// Version `version` of the `index`-th match of `phone`: a 301 leg won by the phone's owner against
    /// the guest Gil, ending `index` minutes after 18:00 (so the history's order is the upload order).
    private static func upload(_ id: String, index: Int, version: Int, by phone: Phone) throws -> String {
        let ended = Date(timeIntervalSince1970: 1_791_655_200 + Double(index) * 60)  // 2026-10-10T18:00:00Z onwards
        let formatter = ISO8601DateFormatter()
        let turns: [[String: Any]] = [
            ["player_id": phone.userId, "leg": 1, "turn": 1, "darts": ["T20", "T20", "T20"], "remaining": 121],
            ["order": 1, "leg": 1, "turn": 2, "score": 100, "remaining": 201],
            ["player_id": phone.userId, "leg": 1, "turn": 3, "darts": ["T20", "T11", "D14"], "remaining": 0],
        ]
        return try json([
            "id": id, "game_type": "301", "players": [["player_id": phone.userId, "order": 0], ["order": 1, "name": "Gil"]],
            "started_at": formatter.string(from: ended.addingTimeInterval(-1200)), "ended_at": formatter.string(from: ended),
            "winner_id": phone.userId, "metadata": ["duration_seconds": duration(version: version)],
            "updated_at": updatedAt(version: version), "throws": turns,
        ])
    }

    private static func post(_ base: String, _ path: String, _ body: String?, token: String?) async throws -> (status: Int, body: [String: Any]?) {
        var arguments = ["-X", "POST", "\(base)\(path)"]
        if let body { arguments += ["-H", "Content-Type: application/json", "--data", body] }
        if let token { arguments += ["-H", "Authorization: Bearer \(token)"] }
        let answer = try await curl(arguments)
        return (answer.status, try? JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: Any])
    }

    private static func phone(_ base: String, handle: String) async throws -> Phone {
        let session = try #require(try await post(base, "/session", nil, token: nil).body)
        let phone = Phone(userId: try #require(session["userId"] as? String), token: try #require(session["token"] as? String))
        let profile = try await post(base, "/users", try json(["handle": handle, "display_name": handle.capitalized]), token: phone.token)
        #expect(profile.status == 201)
        return phone
    }

    /// Every match in `phone`'s history, a page of 100 at a time.
    private static func history(_ base: String, of phone: Phone) async throws -> [[String: Any]] {
        var matches: [[String: Any]] = []
        var before: String?
        repeat {
            let query = "user_id=\(phone.userId)&limit=100" + (before.map { "&before=\($0)" } ?? "")
            let answer = try await curl(["-H", "Authorization: Bearer \(phone.token)", "\(base)/matches?\(query)"])
            #expect(answer.status == 200)
            let page = try #require(try JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: Any])
            matches += try #require(page["matches"] as? [[String: Any]])
            before = page["nextBefore"] as? String
        } while before != nil
        return matches
    }

    /// The account player of a stored match (the guest has no `player_id`).
    private static func owner(_ match: [String: Any]) -> String? {
        (match["players"] as? [[String: Any]])?.compactMap { $0["player_id"] as? String }.first
    }

    @Test func killNineLosesNoAcknowledgedUpload() async throws {
        // Per-user and per-address request limits well above what four phones send in a burst.
        let (dataDirectory, phones, uploads) = try await ServerProcess.with(["--rate-limit", "10000", "--exempt-address", "127.0.0.0/8"]) { server in
            let base = "http://127.0.0.1:\(server.port)"
            var phones: [Phone] = []
            for handle in ["ann", "bo_b", "cyril", "dana"] { phones.append(try await Self.phone(base, handle: handle)) }

            // Each phone uploads new matches, and then a later version of each, as fast as they are answered.
            let versions = NIOLockedValueBox([String: Versions]())
            let uploading = NIOLockedValueBox(phones.count)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (number, phone) in phones.enumerated() {
                    group.addTask {
                        defer { uploading.withLockedValue { $0 -= 1 } }
                        for index in 0..<1000 {
                            let id = UUID().uuidString.lowercased()
                            versions.withLockedValue { $0[id] = Versions(phone: number, index: index) }
                            for version in 1...2 {
                                versions.withLockedValue { $0[id]?.sent = version }
                                let answer = try await Self.post(base, "/matches", try Self.upload(id, index: index, version: version, by: phone), token: phone.token)
                                // Anything else is the kill: the connection refused or cut (status 0).
                                guard answer.status == (version == 1 ? 201 : 200) else { return }
                                #expect(answer.body?["result"] as? String == (version == 1 ? "created" : "updated"))
                                versions.withLockedValue { $0[id]?.acknowledged = version }
                            }
                        }
                    }
                }
                // Kill while uploads are in flight, once a few dozen have been acknowledged.
                let deadline = ContinuousClock.now + .seconds(120)
                while versions.withLockedValue({ $0.values.filter { $0.acknowledged > 0 }.count }) < 24,
                    uploading.withLockedValue({ $0 }) > 0, ContinuousClock.now < deadline
                {
                    try await Task.sleep(for: .milliseconds(20))
                }
                await server.stop(signal: SIGKILL)
                try await group.waitForAll()
            }
            return (server.dataDirectory, phones, versions.withLockedValue { $0 })
        }
        #expect(uploads.values.filter { $0.acknowledged > 0 }.count >= 24, "uploads must have been acknowledged before the kill")
        try await ServerProcess.with(dataDirectory: dataDirectory) { restarted in
            let restartedBase = "http://127.0.0.1:\(restarted.port)"
            var stored: [String: [String: Any]] = [:]
            for phone in phones {
                for match in try await Self.history(restartedBase, of: phone) { stored[try #require(match["id"] as? String)] = match }
            }
            for (id, upload) in uploads {
                guard let match = stored[id] else {
                    #expect(upload.acknowledged == 0, "match \(id) was acknowledged at version \(upload.acknowledged) and is gone")
                    continue
                }
                // The stored version is one that was sent, no older than the one acknowledged, and whole.
                let version = try #require([1, 2].first { match["updated_at"] as? String == Self.storedUpdatedAt(version: $0) })
                #expect(version >= upload.acknowledged && version <= upload.sent, "match \(id): acknowledged \(upload.acknowledged), sent \(upload.sent), found \(version)")
                #expect((match["metadata"] as? [String: Any])?["duration_seconds"] as? Int == Self.duration(version: version))
                let players = try #require(match["players"] as? [[String: Any]])
                #expect((players.first?["stats"] as? [String: Any])?["highest_checkout"] as? Int == 121, "match \(id) lost its turns")
            }
            #expect(stored.keys.allSatisfy { uploads[$0] != nil }, "the history holds only matches that were sent")

            // Uploads go on after the restart: a new match is filed, and an acknowledged one sent again changes nothing.
            let ann = phones[0]
            let fresh = try await Self.post(
                restartedBase, "/matches", try Self.upload(UUID().uuidString.lowercased(), index: 1000, version: 1, by: ann), token: ann.token)
            #expect(fresh.status == 201)
            #expect(try await Self.history(restartedBase, of: ann).count == stored.values.filter { Self.owner($0) == ann.userId }.count + 1)
            if let acknowledged = uploads.first(where: { $0.value.acknowledged == 2 }) {
                let (id, upload) = (acknowledged.key, acknowledged.value)
                let phone = phones[upload.phone]
                let again = try await Self.post(
                    restartedBase, "/matches", try Self.upload(id, index: upload.index, version: 2, by: phone), token: phone.token)
                #expect(again.status == 200 && again.body?["result"] as? String == "unchanged", "\(String(describing: again.body))")
            }
        }
    }
}
