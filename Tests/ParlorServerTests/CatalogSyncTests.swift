import Foundation
import Logging
import ParlorTestSupport
import ParlorRules
import Testing
@testable import ParlorServer

/// The catalog: `getCatalog`, `GET /catalog` with its ETag, `observeCatalog`, and `catalog import`
/// reaching a running server's subscribers.
@Suite struct CatalogSyncTests {
    /// A raw HTTP GET with extra headers; returns the status, the response headers (lowercased names) and the body.
    static func get(_ parlor: ParlorHarness, _ path: String, headers: [(String, String)] = []) async throws
        -> (status: Int, headers: [String: String], body: String)
    {
        var head = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        head += "\r\n"
        let response = String(decoding: try await RawSocket.exchange(port: parlor.port, bytes: Array(head.utf8)), as: UTF8.self)
        let parts = response.components(separatedBy: "\r\n\r\n")
        let lines = parts[0].components(separatedBy: "\r\n")
        let status = Int(lines[0].split(separator: " ")[1]) ?? 0
        var fields: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return (status, fields, parts.dropFirst().joined(separator: "\r\n\r\n"))
    }

    static func writeCatalog(_ catalog: Catalog) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("parlor-catalog-\(UUID().uuidString).json").path
        try JSONEncoder().encode(catalog).write(to: URL(fileURLWithPath: path))
        return path
    }

    static func smallCatalog() -> Catalog {
        let game = Game(id: "only-s", name: "Only S", timeLimit: 30, kind: .word(letterPosition: .start, targetLetter: "S"))
        return Catalog(version: 1, updatedAt: Instant(millisecondsSinceEpoch: 0), gameModes: [
            GameMode(id: "word", name: "Word", levels: [Level(id: "one", name: "One", difficulty: 1, games: [game])]),
        ])
    }

    @Test func theStarterCatalogIsServedWithoutSignIn() async throws {
        let store = InMemoryStore()
        try await withParlor(store: store, configure: LobbyFixture.configure) { parlor in
            try await parlor.connect(signIn: false) { client in
                let whole = try #require(try await client.call("getCatalog").result)
                #expect(whole["version"] as? Int == 1 && (whole["gameModes"] as? [Any])?.count == 2)
                let games = (whole["gameModes"] as? [[String: Any]])?.flatMap { ($0["levels"] as? [[String: Any]]) ?? [] }
                    .flatMap { ($0["games"] as? [[String: Any]]) ?? [] }
                #expect(games?.count == 42)
                let unchanged = try #require(try await client.call("getCatalog", ["since": 1]).result)
                #expect(unchanged as NSDictionary == ["unchanged": true, "version": 1] as NSDictionary)
                #expect(try await client.call("getCatalog", ["since": 0]).result?["gameModes"] != nil)
            }
            // First start stored the starter catalog.
            #expect(try await store.loadCatalog()?.version == 1)

            let first = try await Self.get(parlor, "/catalog")
            #expect(first.status == 200 && first.headers["etag"] == "\"v1\"" && first.headers["cache-control"] == "no-cache")
            #expect(first.body.contains("\"word-start-s\""))
            let cached = try await Self.get(parlor, "/catalog", headers: [("If-None-Match", "\"v1\"")])
            #expect(cached.status == 304 && cached.body.isEmpty && cached.headers["etag"] == "\"v1\"")
            #expect(try await Self.get(parlor, "/catalog", headers: [("If-None-Match", "W/\"v0\", W/\"v1\"")]).status == 304)
            #expect(try await Self.get(parlor, "/catalog", headers: [("If-None-Match", "\"v0\"")]).status == 200)
        }
    }

    @Test func anImportedCatalogReachesRunningSubscribers() async throws {
        let store = InMemoryStore()
        try await withParlor(store: store, configure: {
            LobbyFixture.configure(&$0)
            $0.wordGames.catalogPollInterval = .milliseconds(20)
        }) { parlor in
            try await parlor.connect(signIn: false) { watcher in
                let observed = try await watcher.call("observeCatalog")
                let sub = try #require(observed.result?["subscription"] as? Int)
                let current = try await watcher.nextEvent(sub: sub)
                #expect(current["event"] as? String == "catalog" && (current["data"] as? [String: Any])?["version"] as? Int == 1)

                // What `parlor-server catalog import FILE` does, against the store the server runs on.
                let file = try Self.writeCatalog(Self.smallCatalog())
                defer { try? FileManager.default.removeItem(atPath: file) }
                let imported = try await CatalogImport.run(file: file, store: store, at: Instant(millisecondsSinceEpoch: 1_800_000_000_000))
                #expect(imported.version == 2)

                let next = try await watcher.nextEvent(sub: sub)
                let data = try #require(next["data"] as? [String: Any])
                #expect(next["event"] as? String == "catalog" && data["version"] as? Int == 2)
                #expect(data["updatedAt"] as? String == "2027-01-15T08:00:00.000Z")
                #expect(try await watcher.call("getCatalog", ["since": 1]).result?["version"] as? Int == 2)
                #expect(try await Self.get(parlor, "/catalog").headers["etag"] == "\"v2\"")
                #expect(try await Self.get(parlor, "/catalog", headers: [("If-None-Match", "\"v1\"")]).status == 200)
            }
            // New rounds play the new catalog.
            try await parlor.connect { ann in
                let lobby = try await LobbyFixture.create(ann)
                #expect(try await ann.call("startGame", ["lobbyId": lobby.id, "gameId": "word-start-s"]).errorCode == "GAME_NOT_FOUND")
                #expect(try await ann.call("startGame", ["lobbyId": lobby.id])["result"] is NSNull)
            }
        }
    }

    /// As `parlor-server catalog import FILE --data-dir DIR` runs it: into the SQLite database of a
    /// server that is running on DIR (and so holds its lock), then into one with no server running.
    @Test func importingIntoARunningServersDataDirectoryReachesItsSubscribers() async throws {
        try await withTemporaryDirectory { directory in
            let logger = Logger(label: "parlor.test")
            let opened = try StoreOpener.open(directory: directory, logger: logger)
            let file = try Self.writeCatalog(Self.smallCatalog())
            defer { try? FileManager.default.removeItem(atPath: file) }
            try await withParlor(store: opened.store, configure: {
                LobbyFixture.configure(&$0)
                $0.wordGames.catalogPollInterval = .milliseconds(20)
            }) { parlor in
                try await parlor.connect(signIn: false) { watcher in
                    let sub = try #require(try await watcher.call("observeCatalog").result?["subscription"] as? Int)
                    #expect((try await watcher.nextEvent(sub: sub)["data"] as? [String: Any])?["version"] as? Int == 1)
                    let imported = try await CatalogImport.run(file: file, dataDirectory: directory, logger: logger)
                    #expect(imported.version == 2)
                    let next = try await watcher.nextEvent(sub: sub)
                    #expect(next["event"] as? String == "catalog" && (next["data"] as? [String: Any])?["version"] as? Int == 2)
                }
            }
            await opened.store.close()
            withExtendedLifetime(opened.lock) {}
            // No server running: the import takes the directory's lock itself.
            #expect(try await CatalogImport.run(file: file, dataDirectory: directory, logger: logger).version == 3)
        }
    }

    @Test func aBrokenFileIsRefusedWithEveryProblemAndNothingIsStored() async throws {
        let store = InMemoryStore()
        try await store.saveCatalog(try StarterCatalog.load())
        var broken = Self.smallCatalog()
        broken.gameModes[0].levels[0].difficulty = 9
        broken.gameModes[0].levels[0].games.append(
            Game(id: "only-s", name: "", timeLimit: 5, kind: .category(answerBank: ["a", "A"])))
        let file = try Self.writeCatalog(broken)
        defer { try? FileManager.default.removeItem(atPath: file) }
        do {
            _ = try await CatalogImport.run(file: file, store: store, at: .epoch)
            Issue.record("a broken catalog was imported")
        } catch let error as CatalogFileError {
            let level = "gameModes[0].levels[0]"
            #expect(error.problems.map(\.path) == [
                "\(level).difficulty", "\(level).games[1].id", "\(level).games[1].name", "\(level).games[1].timeLimit",
                "\(level).games[1].answerBank[1]",
            ])
            #expect(error.description.hasPrefix("\(file): 5 problems\n  \(level).difficulty: must be between 1 and 5 (got 9)"))
        }
        #expect(try await store.loadCatalog()?.version == 1)

        let notJSON = try Self.writeCatalog(Self.smallCatalog())
        defer { try? FileManager.default.removeItem(atPath: notJSON) }
        try Data(#"{"version": 1, "updatedAt": "2026-01-01T00:00:00Z", "gameModes": [{"id": "w", "name": "W", "description": "", "levels": [{"id": "l", "name": "L", "description": "", "difficulty": 1, "games": [{"id": "g", "name": "G", "timeLimit": "soon", "type": "word"}]}]}]}"#.utf8)
            .write(to: URL(fileURLWithPath: notJSON))
        do {
            _ = try await CatalogImport.run(file: notJSON, store: store, at: .epoch)
            Issue.record("a mistyped catalog was imported")
        } catch let error as CatalogFileError {
            #expect(error.problems.map(\.description) == ["gameModes[0].levels[0].games[0].timeLimit: must be an integer"])
        }
    }

    @Test func aStoredCatalogIsServedInsteadOfTheStarter() async throws {
        let store = InMemoryStore()
        var stored = Self.smallCatalog()
        stored.version = 7
        try await store.saveCatalog(stored)
        try await withParlor(store: store, configure: LobbyFixture.configure) { parlor in
            try await parlor.connect(signIn: false) { client in
                let catalog = try #require(try await client.call("getCatalog").result)
                #expect(catalog["version"] as? Int == 7)
            }
        }
    }
}
