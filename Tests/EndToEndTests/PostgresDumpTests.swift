// Only with the PostgreSQL trait (scripts/test.sh builds the tests with it): see Package.swift.
#if PostgreSQL
import Foundation
import ParlorTestSupport
import Testing

/// The clustered mode's backup is PostgreSQL's own: `pg_dump` of the database a node runs on, restored
/// with `pg_restore` into a fresh database, serves the same games, the same tokens (the secret is in
/// the dump) and the same avatars (the `files` table). Skipped, saying why, where PostgreSQL is not installed.
@Suite(.enabled(if: TestPostgres.unavailableReason == nil, Comment(rawValue: TestPostgres.unavailableReason ?? "")))
struct PostgresDumpTests {
    @Test func aDumpRestoredIntoAFreshDatabaseServesTheSameGamesAndFiles() async throws {
        let postgres = try #require(try await TestPostgres.shared())
        let original = try await postgres.makeDatabase()
        let dump = FileManager.default.temporaryDirectory.appendingPathComponent("parlor-pg-dump-\(UUID().uuidString).dump").path
        defer { try? FileManager.default.removeItem(atPath: dump) }
        let jpeg = try await TestPhotos.make(.at(48.8566, 2.3522))
        let jpegPath = dump + ".jpg"
        defer { try? FileManager.default.removeItem(atPath: jpegPath) }
        try Data(jpeg).write(to: URL(fileURLWithPath: jpegPath))

        struct Played: Sendable {
            var room: String
            var roomVersion: Int
            var ticTacToe: String
            var token: String
            var member: String
            var avatar: String
        }
        let played: Played = try await ServerProcess.with(["--postgres", postgres.address(original)]) { server in
            let base = "http://127.0.0.1:\(server.port)"
            let (room, roomVersion, ticTacToe, token): (String, Int, String, String) = try await server.connect { host in
                try await server.connect { guest in
                    let created = try #require(try await host.call("createTicTacToe", ["playerName": "Ann"]).result)
                    let ticTacToe = try #require((created["ticTacToe"] as? [String: Any])?["code"] as? String)
                    #expect(try await guest.call("joinTicTacToe", ["code": ticTacToe, "playerName": "Bo"]).result != nil)
                    #expect(try await host.call("placeMark", ["code": ticTacToe, "cell": 4]).result != nil)
                    let reply = try await host.call("createRoom", ["pointLimit": 350, "pointValue": 10, "playerCount": 2, "playerName": "Host"])
                    let room = try #require(reply.result?["room"] as? [String: Any])
                    return (try #require(room["id"] as? String), try #require(room["version"] as? Int), ticTacToe, try #require(host.token))
                }
            }
            let (member, _, avatar) = try await BackupTestSupport.memberWithAvatar(base: base, jpegPath: jpegPath)

            // Dumped while the node runs: pg_dump reads one snapshot of the database.
            let dumped = try await ExternalProcess.run([
                postgres.program("pg_dump"), "--format=custom", "--no-owner", "-h", "127.0.0.1", "-p", "\(postgres.port)", "-U", postgres.user,
                "-d", original, "-f", dump,
            ], timeout: .seconds(120))
            #expect(dumped.status == 0, "\(dumped.stderr)")
            return Played(room: room, roomVersion: roomVersion, ticTacToe: ticTacToe, token: token, member: member, avatar: avatar)
        }

        let fresh = try await postgres.makeDatabase()
        let restored = try await ExternalProcess.run([
            postgres.program("pg_restore"), "--no-owner", "--exit-on-error", "-h", "127.0.0.1", "-p", "\(postgres.port)", "-U", postgres.user,
            "-d", fresh, dump,
        ], timeout: .seconds(120))
        #expect(restored.status == 0, "\(restored.stderr)")
        #expect(try await postgres.psql("SELECT count(*) FROM files", database: fresh) == "1")

        try await ServerProcess.with(["--postgres", postgres.address(fresh)]) { server in
            try await server.connect(token: played.token) { host in
                let room = try await host.call("getRoom", ["code": played.room])
                #expect((room.result?["room"] as? [String: Any])?["version"] as? Int ?? room.result?["version"] as? Int == played.roomVersion, "\(room)")
                let game = try await host.call("getTicTacToe", ["code": played.ticTacToe])
                #expect(game.result != nil, "\(game)")
            }
            let avatar = try await curl(["http://127.0.0.1:\(server.port)/storage/v1/object/public/avatars/\(played.member)/me.jpg"])
            #expect(avatar.status == 200 && avatar.body == played.avatar)
        }
    }
}
#endif
