import Foundation
@testable import ParlorClient
import ParlorRules
import ParlorWire
import Testing

/// The client's pure parts, without a socket: backoff, the pending-request table, the subscription
/// table, server addresses and the token file.
@Suite("ParlorClient parts")
struct ClientPartsTests {
    // MARK: Backoff

    @Test("Reconnect delays double from the initial delay, are capped, and jitter within the configured share")
    func backoff() {
        var policy = ReconnectPolicy()
        policy.initialDelay = .milliseconds(200)
        policy.maximumDelay = .seconds(5)
        policy.jitter = 0.5
        #expect(policy.delay(forAttempt: 1, random: 0) == .milliseconds(100))
        #expect(policy.delay(forAttempt: 1, random: 1) == .milliseconds(200))
        #expect(policy.delay(forAttempt: 2, random: 1) == .milliseconds(400))
        #expect(policy.delay(forAttempt: 3, random: 0.5) == .milliseconds(600))
        #expect(policy.delay(forAttempt: 10, random: 1) == .seconds(5))
        #expect(policy.delay(forAttempt: 10_000, random: 0) == .milliseconds(2500))
        policy.jitter = 0
        #expect(policy.delay(forAttempt: 2, random: 0.9) == .milliseconds(400))
    }

    // MARK: Pending requests

    @Test("A reply that comes before its requester waits is kept; requests are bounded")
    func pendingRequests() throws {
        var pending = PendingRequests<String>(limit: 2)
        let first = pending.register(operation: "getRoom", generation: 1)
        let second = pending.register(operation: "joinRoom", generation: 2)
        #expect(first == 1 && second == 2)
        #expect(pending.register(operation: "hello", generation: 2) == nil)

        #expect(pending.complete(1, with: .success([1])) == nil)
        #expect(try pending.wait(1, waiter: "a")?.get() == [1])
        #expect(pending.count == 1)

        #expect(pending.wait(2, waiter: "b") == nil)
        let resumed = pending.complete(2, with: .failure(.cancelled))
        #expect(resumed?.0 == "b")
        #expect(pending.complete(2, with: .success([])) == nil)
        #expect(pending.count == 0)
    }

    @Test("Losing a connection fails only the requests sent on it (or before)")
    func connectionLostByGeneration() {
        var pending = PendingRequests<String>(limit: 8)
        let old = pending.register(operation: "setReady", generation: 1)!
        let current = pending.register(operation: "getRoom", generation: 2)!
        _ = pending.wait(old, waiter: "old")
        _ = pending.wait(current, waiter: "current")
        let failed = pending.connectionLost(generation: 1)
        #expect(failed.map(\.0) == ["old"])
        #expect(failed.first.map { $0.1 == .failure(.connectionLost(operation: "setReady")) } == true)
        #expect(pending.count == 1)
    }

    // MARK: Subscriptions

    private func roomFrame(sub: Int, version: Int?) throws -> [UInt8] {
        guard let version else { return EventMessage.frame(subscription: sub, event: .room, data: .null) }
        return EventMessage.frame(subscription: sub, event: .room, data: try EncodedJSON(Self.room(version: version)))
    }

    static func room(version: Int) -> GameRoom {
        let json = """
            {"id":"ROOM01","pointLimit":201,"pointValue":25,"playerCount":4,"currentRound":1,"isStarted":false,
             "isFinished":false,"players":[],"createdAt":"2027-01-15T08:00:00.000Z",
             "createdBy":"00000000-0000-4000-8000-000000000001","version":\(version)}
            """
        return try! JSONDecoder().decode(GameRoom.self, from: Data(json.utf8))
    }

    private func collect(_ effects: [SubscriptionTable.Effect]) -> [String] {
        effects.map { effect in
            switch effect {
            case .deliver(let delivery):
                "\(delivery.event?.rawValue ?? delivery.target.kind) v\(delivery.version.map(String.init) ?? "nil") to \(delivery.streams)"
            case .finish(let end): "finish \(end.streams)"
            case .resubscribe(let target): "resubscribe \(target)"
            case .presence(let presence): "presence " + presence.players.map { $0.online ? "●" : "○" }.joined()
            case .closed(let reason): "closed: \(reason)"
            case .access(let access): "access \(access.code) \(access.locked ? "locked" : "open")"
            case .malformed: "malformed"
            }
        }
    }

    @Test("Presence events pass through whole, whatever the version; an unreadable one is reported, not delivered")
    func presenceEvents() throws {
        var table = SubscriptionTable()
        let (_, continuation) = AsyncStream.makeStream(of: GameRoom?.self)
        let target = table.add(continuation, of: .room, key: "ROOM01").target
        table.bind(target, to: 7)
        #expect(collect(table.receive(sub: 7, event: .room, frame: try roomFrame(sub: 7, version: 3), generation: 1)) == ["room v3 to 1"])
        let ann = try #require(UserID("00000000-0000-4000-8000-00000000000a"))
        let bo = try #require(UserID("00000000-0000-4000-8000-00000000000b"))
        func presence(_ annOnline: Bool, _ boOnline: Bool) -> [UInt8] {
            let view = PresenceView(players: [PresenceView.Player(userId: ann, online: annOnline), PresenceView.Player(userId: bo, online: boOnline)])
            return EventMessage.frame(subscription: 7, event: .presence, data: view.encoded)
        }
        #expect(collect(table.receive(sub: 7, event: .presence, frame: presence(true, true), generation: 1)) == ["presence ●●"])
        #expect(collect(table.receive(sub: 7, event: .presence, frame: presence(true, false), generation: 1)) == ["presence ●○"])
        // The room has not changed: the same version is still dropped.
        #expect(collect(table.receive(sub: 7, event: .room, frame: try roomFrame(sub: 7, version: 3), generation: 1)) == [])
        let broken = EventMessage.frame(subscription: 7, event: .presence, data: EncodedJSON(trustedBytes: Array(#"{"players":7}"#.utf8)))
        #expect(collect(table.receive(sub: 7, event: .presence, frame: broken, generation: 1)) == ["malformed"])
        // Another subscription's presence is not this one's.
        #expect(table.receive(sub: 8, event: .presence, frame: presence(false, false), generation: 1).isEmpty)
    }

    @Test("An access event carries a followed game's settings to the client; an unreadable one is reported")
    func accessEvents() throws {
        var table = SubscriptionTable()
        let (_, continuation) = AsyncStream.makeStream(of: GameRoom?.self)
        let target = table.add(continuation, of: .room, key: "ROOM01").target
        table.bind(target, to: 7)
        let view = #"{"kind":"rummy","code":"ROOM01","private":true,"locked":true,"spectators":"none"}"#
        let access = EventMessage.frame(subscription: 7, event: .access, data: EncodedJSON(trustedBytes: Array(view.utf8)))
        #expect(collect(table.receive(sub: 7, event: .access, frame: access, generation: 1)) == ["access ROOM01 locked"])
        let broken = EventMessage.frame(subscription: 7, event: .access, data: EncodedJSON(trustedBytes: Array(#"{"locked":"yes"}"#.utf8)))
        #expect(collect(table.receive(sub: 7, event: .access, frame: broken, generation: 1)) == ["malformed"])
        #expect(table.receive(sub: 8, event: .access, frame: access, generation: 1).isEmpty)
    }

    @Test("A closed event carries the operator's reason to the client; an unreadable one is reported")
    func closedEvents() throws {
        var table = SubscriptionTable()
        let (_, continuation) = AsyncStream.makeStream(of: GameRoom?.self)
        let target = table.add(continuation, of: .room, key: "ROOM01").target
        table.bind(target, to: 7)
        let closed = EventMessage.frame(subscription: 7, event: .closed, data: EncodedJSON(trustedBytes: Array(#"{"reason":"The venue is closing"}"#.utf8)))
        #expect(collect(table.receive(sub: 7, event: .closed, frame: closed, generation: 1)) == ["closed: The venue is closing"])
        let broken = EventMessage.frame(subscription: 7, event: .closed, data: EncodedJSON(trustedBytes: Array(#"{"reason":7}"#.utf8)))
        #expect(collect(table.receive(sub: 7, event: .closed, frame: broken, generation: 1)) == ["malformed"])
    }

    @Test("A presence view is written as JSONEncoder writes it, and read back")
    func presenceViewBytes() throws {
        let view = PresenceView(players: [
            PresenceView.Player(userId: try #require(UserID("00000000-0000-4000-8000-00000000000a")), online: true),
            PresenceView.Player(userId: try #require(UserID("00000000-0000-4000-8000-00000000000b")), online: false),
        ])
        #expect(view.encoded == (try EncodedJSON(view)))
        #expect(try WireJSON.decode(PresenceView.self, from: view.encoded.bytes) == view)
        #expect(view.isOnline(view.players[1].userId) == false && PresenceView(players: []).isOnline(view.players[0].userId) == nil)
    }

    @Test("Snapshots are delivered once per newer version; deletion is nil, then the end")
    func subscriptionVersions() throws {
        var table = SubscriptionTable()
        let (_, continuation) = AsyncStream.makeStream(of: GameRoom?.self)
        let (target, sinkID, prime) = table.add(continuation, of: .room, key: "ROOM01")
        #expect(prime == nil)
        // Events for a subscription not yet bound are not ours.
        #expect(table.receive(sub: 7, event: .room, frame: try roomFrame(sub: 7, version: 1), generation: 1).isEmpty)
        table.bind(target, to: 7)
        #expect(collect(table.receive(sub: 7, event: .room, frame: try roomFrame(sub: 7, version: 1), generation: 1)) == ["room v1 to 1"])
        #expect(collect(table.receive(sub: 7, event: .room, frame: try roomFrame(sub: 7, version: 1), generation: 1)) == [])
        #expect(collect(table.receive(sub: 7, event: .room, frame: try roomFrame(sub: 7, version: 3), generation: 1)) == ["room v3 to 1"])
        #expect(collect(table.receive(sub: 7, event: .room, frame: try roomFrame(sub: 7, version: 2), generation: 1)) == [])

        // A second stream is primed with the newest room.
        let (_, second) = AsyncStream.makeStream(of: GameRoom?.self)
        let (_, secondID, secondPrime) = table.add(second, of: .room, key: "ROOM01")
        #expect(secondPrime.map { collect([$0]) } == ["room v3 to 1"])
        #expect(table.removeSink(secondID, from: target) == nil)

        // After a reconnect the same target gets a new server id; the repeated snapshot is dropped.
        table.unbindAll()
        #expect(table.receive(sub: 7, event: .room, frame: try roomFrame(sub: 7, version: 4), generation: 2).isEmpty)
        table.bind(target, to: 9)
        #expect(collect(table.receive(sub: 9, event: .room, frame: try roomFrame(sub: 9, version: 3), generation: 2)) == [])
        #expect(collect(table.receive(sub: 9, event: .room, frame: try roomFrame(sub: 9, version: nil), generation: 2)) == ["room vnil to 1"])
        #expect(collect(table.receive(sub: 9, event: .end, frame: [], generation: 2)) == ["finish 1"])
        #expect(table.entries.isEmpty)
        #expect(table.removeSink(sinkID, from: target) == nil)
    }

    @Test("Quiz snapshots are delivered once per newer version, only to the quiz's streams; deletion is nil")
    func quizSubscription() throws {
        var table = SubscriptionTable()
        let (_, continuation) = AsyncStream.makeStream(of: QuizView?.self)
        let target = table.add(continuation, of: .quiz, key: "qwert ").target
        #expect(target.observeOperation.name == Operation.observeQuiz.name && target.key == "QWERT")
        #expect(target.isGone(.quizNotFound) && !target.isGone(.matchNotFound))
        table.bind(target, to: 5)
        func frame(_ version: Int?, event: EventName = .quiz) throws -> [UInt8] {
            guard let version else { return EventMessage.frame(subscription: 5, event: event, data: .null) }
            return EventMessage.frame(subscription: 5, event: event, data: try EncodedJSON(QuizFixtures.view("revealing", version: version)))
        }
        #expect(collect(table.receive(sub: 5, event: .quiz, frame: try frame(4), generation: 1)) == ["quiz v4 to 1"])
        #expect(collect(table.receive(sub: 5, event: .quiz, frame: try frame(4), generation: 1)) == [])
        #expect(collect(table.receive(sub: 5, event: .match, frame: try frame(6, event: .match), generation: 1)) == [])
        let (_, second) = AsyncStream.makeStream(of: QuizView?.self)
        #expect(table.add(second, of: .quiz, key: "QWERT").prime.map { collect([$0]) } == ["quiz v4 to 1"])
        #expect(collect(table.receive(sub: 5, event: .quiz, frame: try frame(nil), generation: 1)) == ["quiz vnil to 2"])
    }

    @Test("An end nobody asked for (the room still there) subscribes again, once per connection")
    func unexpectedEnd() {
        var table = SubscriptionTable()
        let (_, continuation) = AsyncStream.makeStream(of: GameRoom?.self)
        let (target, sinkID, _) = table.add(continuation, of: .room, key: "ROOM01")
        table.bind(target, to: 4)
        #expect(collect(table.receive(sub: 4, event: .end, frame: [], generation: 1)) == ["resubscribe room ROOM01"])
        table.bind(target, to: 5)
        #expect(collect(table.receive(sub: 5, event: .end, frame: [], generation: 1)) == [])
        table.bind(target, to: 6)
        #expect(table.removeSink(sinkID, from: target) == 6)
    }

    @Test("Lobby subscriptions deliver the public view and one's own words, each once per version, then the deletion")
    func lobbyEvents() throws {
        var table = SubscriptionTable()
        let (_, continuation) = AsyncStream.makeStream(of: LobbyUpdate.self)
        let target = table.add(continuation, of: .lobby, key: "lobby-1").target
        table.bind(target, to: 3)
        func lobby(_ version: Int) -> [UInt8] {
            Array(#"{"sub":3,"event":"lobby","data":{"lobbyId":"lobby-1","lobbyCode":"ABCD","status":"OPEN","creator":"00000000-0000-4000-8000-00000000000a","capacity":8,"version":\#(version),"players":[]}}"#.utf8)
        }
        func words(_ version: Int) -> [UInt8] {
            Array(#"{"sub":3,"event":"lobbyPrivate","data":{"lobbyId":"lobby-1","userId":"00000000-0000-4000-8000-00000000000a","version":\#(version),"words":[]}}"#.utf8)
        }
        #expect(collect(table.receive(sub: 3, event: .lobby, frame: lobby(1), generation: 1)) == ["lobby v1 to 1"])
        #expect(collect(table.receive(sub: 3, event: .lobbyPrivate, frame: words(1), generation: 1)) == ["lobbyPrivate v1 to 1"])
        #expect(collect(table.receive(sub: 3, event: .lobby, frame: lobby(1), generation: 1)) == [])
        #expect(collect(table.receive(sub: 3, event: .lobbyPrivate, frame: words(1), generation: 1)) == [])
        #expect(collect(table.receive(sub: 3, event: .lobby, frame: lobby(2), generation: 1)) == ["lobby v2 to 1"])
        // Another game's view is not the lobby's.
        #expect(collect(table.receive(sub: 3, event: .room, frame: try roomFrame(sub: 3, version: 9), generation: 1)) == [])
        let deleted = Array(#"{"sub":3,"event":"lobby","data":null}"#.utf8)
        let effects = table.receive(sub: 3, event: .lobby, frame: deleted, generation: 1)
        guard case .deliver(let deletion)? = effects.first, deletion.update as? LobbyUpdate == .deleted else {
            Issue.record("expected the deletion, got \(collect(effects))")
            return
        }
        #expect(collect(table.receive(sub: 3, event: .end, frame: [], generation: 1)) == ["finish 1"])
    }

    @Test("A game's stream reaches its callers' streams: a late stream is primed with the public then the private view, and a revoked one hears why, then ends")
    func streamsReceiveWhatTheGameDeclares() async throws {
        var table = SubscriptionTable()
        let (first, firstContinuation) = AsyncStream.makeStream(of: LobbyUpdate.self)
        let target = table.add(firstContinuation, of: .lobby, key: "lobby-1").target
        #expect(target.observeOperation.name == Operation.observeLobby.name && target.key == "lobby-1")
        #expect(target.isRevoked(.notLobbyMember) && !target.isGone(.notLobbyMember) && target.isGone(.lobbyNotFound))
        table.bind(target, to: 3)
        let lobby = Array(#"{"sub":3,"event":"lobby","data":{"lobbyId":"lobby-1","lobbyCode":"ABCD","status":"OPEN","creator":"00000000-0000-4000-8000-00000000000a","capacity":8,"version":4,"players":[]}}"#.utf8)
        let words = Array(#"{"sub":3,"event":"lobbyPrivate","data":{"lobbyId":"lobby-1","userId":"00000000-0000-4000-8000-00000000000a","version":2,"words":[]}}"#.utf8)
        func carryOut(_ effects: [SubscriptionTable.Effect]) {
            for case .deliver(let delivery) in effects { delivery.yield() }
            for case .finish(let end) in effects { end.finish() }
        }
        carryOut(table.receive(sub: 3, event: .lobby, frame: lobby, generation: 1))
        carryOut(table.receive(sub: 3, event: .lobbyPrivate, frame: words, generation: 1))
        let (late, lateContinuation) = AsyncStream.makeStream(of: LobbyUpdate.self)
        let (_, _, prime) = table.add(lateContinuation, of: .lobby, key: "lobby-1")
        carryOut(prime.map { [$0] } ?? [])
        carryOut(table.targetRevoked(target))
        #expect(table.entries.isEmpty)
        func kinds(_ stream: AsyncStream<LobbyUpdate>) async -> [String] {
            var kinds: [String] = []
            for await update in stream {
                switch update {
                case .lobby(let view): kinds.append("lobby v\(view.version)")
                case .playerWords(let words): kinds.append("words v\(words.version)")
                case .deleted: kinds.append("deleted")
                case .removed: kinds.append("removed")
                }
            }
            return kinds
        }
        #expect(await kinds(first) == ["lobby v4", "words v2", "removed"])
        #expect(await kinds(late) == ["lobby v4", "words v2", "removed"])
    }

    @Test("Match subscriptions deliver each newer view once, prime a late stream, ignore other games' events, and end with nil")
    func matchEvents() throws {
        var table = SubscriptionTable()
        let (_, continuation) = AsyncStream.makeStream(of: MatchView?.self)
        let target = table.add(continuation, of: .match, key: "ACDEF").target
        table.bind(target, to: 2)
        var match = try DartsMatch.create(
            id: "m", code: MatchCode(parsing: "ACDEF"), settings: X01Settings(gameType: .x501), host: RoomFixtures.ann,
            playerName: "Ann", at: .epoch)
        func frame(_ match: DartsMatch?) throws -> [UInt8] {
            EventMessage.frame(subscription: 2, event: .match, data: try match.map { try EncodedJSON(MatchView($0)) } ?? .null)
        }
        #expect(collect(table.receive(sub: 2, event: .match, frame: try frame(match), generation: 1)) == ["match v1 to 1"])
        #expect(collect(table.receive(sub: 2, event: .match, frame: try frame(match), generation: 1)) == [])
        #expect(collect(table.receive(sub: 2, event: .room, frame: try roomFrame(sub: 2, version: 5), generation: 1)) == [])
        _ = try match.apply(.start, by: RoomFixtures.ann, at: .epoch)
        #expect(collect(table.receive(sub: 2, event: .match, frame: try frame(match), generation: 1)) == ["match v2 to 1"])
        let (_, late) = AsyncStream.makeStream(of: MatchView?.self)
        #expect(table.add(late, of: .match, key: "ACDEF").prime.map { collect([$0]) } == ["match v2 to 1"])
        #expect(collect(table.receive(sub: 2, event: .match, frame: try frame(nil), generation: 1)) == ["match vnil to 2"])
        #expect(collect(table.receive(sub: 2, event: .end, frame: [], generation: 1)) == ["finish 2"])
        #expect(GameStream.match.target("ACDEF").isGone(.matchNotFound) && !GameStream.match.target("ACDEF").isGone(.roomNotFound))
    }

    @Test("A malformed event is reported, not delivered")
    func malformedEvent() {
        var table = SubscriptionTable()
        let (_, continuation) = AsyncStream.makeStream(of: GameRoom?.self)
        let target = table.add(continuation, of: .room, key: "ROOM01").target
        table.bind(target, to: 1)
        let frame = Array(#"{"sub":1,"event":"room","data":{"id":5}}"#.utf8)
        #expect(collect(table.receive(sub: 1, event: .room, frame: frame, generation: 1)) == ["malformed"])
    }

    // MARK: Addresses and tokens

    @Test("Server addresses are read the way people type them")
    func serverAddresses() throws {
        #expect(try ServerAddress("ws://localhost:8080").url == "ws://localhost:8080/ws")
        #expect(try ServerAddress("localhost:9000").url == "ws://localhost:9000/ws")
        #expect(try ServerAddress(" WSS://Parlor.Example ").url == "wss://parlor.example:443/ws")
        #expect(try ServerAddress("ws://[::1]:8080/custom").url == "ws://[::1]:8080/custom")
        #expect(ServerAddress.localDefault.url == "ws://localhost:8080/ws")
        #expect(throws: ParlorClientError.self) { try ServerAddress("http://localhost:8080") }
    }

    @Test("The token file lives under XDG_CONFIG_HOME (else ~/.config), owner-only, one entry per key")
    func tokenFile() throws {
        #expect(FileTokenStore.defaultPath(environment: ["XDG_CONFIG_HOME": "/x/config", "HOME": "/home/ann"]) == "/x/config/parlor/tokens.json")
        #expect(FileTokenStore.defaultPath(environment: ["XDG_CONFIG_HOME": "relative", "HOME": "/home/ann"]) == "/home/ann/.config/parlor/tokens.json")
        #expect(FileTokenStore.defaultPath(environment: ["HOME": "/home/ann"]) == "/home/ann/.config/parlor/tokens.json")

        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("parlor-tokens-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = FileTokenStore(environment: ["XDG_CONFIG_HOME": directory.path])
        #expect(store.token(for: "ws://a:1/ws") == nil)
        try store.setToken("one", for: "ws://a:1/ws")
        try store.setToken("two", for: "ws://b:2/ws#bo")
        let reopened = FileTokenStore(path: store.path)
        #expect(reopened.token(for: "ws://a:1/ws") == "one")
        #expect(reopened.token(for: "ws://b:2/ws#bo") == "two")
        try reopened.setToken(nil, for: "ws://a:1/ws")
        #expect(store.token(for: "ws://a:1/ws") == nil)

        let file = try FileManager.default.attributesOfItem(atPath: store.path)
        #expect((file[.posixPermissions] as? Int) == 0o600)
        let folder = try FileManager.default.attributesOfItem(atPath: (store.path as NSString).deletingLastPathComponent)
        #expect((folder[.posixPermissions] as? Int) == 0o700)
    }

    @Test("Errors read as sentences")
    func errorSentences() {
        #expect(ParlorClientError.timeout(operation: "joinRoom", after: .seconds(10)).description
            == "The server did not answer joinRoom within 10 seconds; it may or may not have been applied.")
        #expect(ParlorClientError.connectionLost(operation: "setReady").description
            == "The connection was lost before the server answered setReady; it may or may not have been applied.")
        #expect(ParlorClientError.notConnected(reason: "nothing is listening at localhost:8080 (connection refused)").description
            == "Not connected to the Parlor server: nothing is listening at localhost:8080 (connection refused).")
        #expect(ParlorClientError.server(code: .roomFull, status: .resourceExhausted, message: "Room A1B2C3 is full (4 of 4 seats).").description
            == "Room A1B2C3 is full (4 of 4 seats).")
    }
}
