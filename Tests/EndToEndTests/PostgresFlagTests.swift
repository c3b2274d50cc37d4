// Only with the PostgreSQL trait (scripts/test.sh builds the tests with it): see Package.swift.
#if PostgreSQL
import Foundation
import Synchronization
import ParlorTestSupport
import Testing

/// `--postgres` and `PARLOR_POSTGRES` through the real `parlor-server`: everything lives in the
/// database, not the data directory; `/healthz` reports whether the database can be reached; a bad
/// address stops the server at start. Skipped, saying why, only where PostgreSQL is not installed.
@Suite(.enabled(if: TestPostgres.unavailableReason == nil, Comment(rawValue: TestPostgres.unavailableReason ?? "")))
struct PostgresFlagTests {
    @Test func aRoomLivesInTheDatabaseAndOutlivesTheNodeThatMadeIt() async throws {
        let postgres = try #require(try await TestPostgres.shared())
        let address = postgres.address(try await postgres.makeDatabase())
        let created = try await ServerProcess.with(["--postgres", address]) { server in
            let health = try await curl(["http://127.0.0.1:\(server.port)/healthz"])
            #expect(health.status == 200 && health.body == "ok\n")
            #expect(!FileManager.default.fileExists(atPath: server.dataDirectory + "/parlor.sqlite"), "nothing in SQLite")
            return try await server.connect { host in
                let reply = try await host.call("createRoom", ["pointLimit": 350, "pointValue": 10, "playerCount": 2, "playerName": "Host"])
                let room = try #require(reply.result?["room"] as? [String: Any])
                return (code: try #require(room["id"] as? String), token: try #require(host.token))
            }
        }
        // Another node on another data directory, told by the environment: the same room, and the same
        // token secret (the host's token still signs them in).
        try await ServerProcess.with(environment: ["PARLOR_POSTGRES": address]) { server in
            try await server.connect(token: created.token) { host in
                let room = try await host.call("getRoom", ["code": created.code])
                #expect(room.result?["id"] as? String == created.code, "\(room)")
            }
        }
    }

    @Test func healthzSaysWhenTheDatabaseCannotBeReached() async throws {
        let postgres = try #require(try await TestPostgres.startDedicated())
        let address = postgres.address(try await postgres.makeDatabase())
        try await ServerProcess.with(["--postgres", address]) { server in
            #expect(try await curl(["http://127.0.0.1:\(server.port)/healthz"]).status == 200)
            try await postgres.stop()
            // /healthz writes once no write has happened for a while (5 s), and the write fails within 5 s.
            let last = Mutex<String>("")
            let unhealthy = await eventually(timeout: .seconds(30)) {
                let health = try? await curl(["http://127.0.0.1:\(server.port)/healthz"])
                last.withLock { $0 = "\(health?.status ?? 0) \(health?.body ?? "")" }
                return health?.status == 503 && health?.body == "unhealthy: the store cannot write (the database cannot be reached)\n"
            }
            #expect(unhealthy, "last answer: \(last.withLock { $0 }); log: \(server.log.suffix(3000))")
            try await postgres.start()
            #expect(await eventually(timeout: .seconds(30)) { (try? await curl(["http://127.0.0.1:\(server.port)/healthz"]))?.status == 200 })
        }
        try await postgres.stop()
    }

    @Test(arguments: [
        (["--postgres", "postgres://nobody@/db"], "--postgres: postgres://nobody@/db names no host"),
        (["--postgres", "postgres://me@127.0.0.1/db", "--no-persist"], "--postgres and --no-persist cannot be combined"),
    ])
    func aBadAddressStopsTheServerAtStartUp(_ arguments: [String], _ complaint: String) async throws {
        let process = try ChildProcess("parlor-server", ["--port", "0"] + arguments)
        let status = await process.waitForExit(timeout: .seconds(30))
        #expect(status != nil && status != 0)
        #expect(process.standardError.contains(complaint), "\(process.standardError)")
    }

    @Test func anUnreachableDatabaseStopsTheServerAtStartUpSayingSo() async throws {
        let process = try ChildProcess("parlor-server", ["--port", "0", "--postgres", "postgres://parlor@127.0.0.1:1/parlor", "--places", "none"])
        let status = await process.waitForExit(timeout: .seconds(60))
        #expect(status != nil && status != 0)
        #expect(process.standardError.contains("PostgreSQL at postgres://parlor@127.0.0.1:1/parlor cannot be reached"), "\(process.standardError)")
    }
}
#endif
