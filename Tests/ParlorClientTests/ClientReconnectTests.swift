import ParlorClient
import ParlorRules
import ParlorTestSupport
import ParlorWire
import Testing

/// Subscriptions and reconnection: the streams a caller holds keep flowing across dropped connections
/// and server restarts, as the same user, without repeats.
@Suite("ParlorClient subscriptions and reconnects", .timeLimit(.minutes(1)))
struct ClientReconnectTests {
    @Test("observeRoom delivers every version in order, then nil and the end when the room is deleted")
    func observeRoom() async throws {
        let server = try await FakeServer.start()
        let ann = ParlorClient(configuration: testConfiguration(try server.address))
        let bo = ParlorClient(configuration: testConfiguration(try server.address))
        try await withRunningClient(ann) { ann in
            try await withRunningClient(bo) { bo in
                let code = try await ann.createRoom(pointLimit: 201, pointValue: 25, playerCount: 4, playerName: "Ann").room.id.rawValue
                var rooms = try await ann.observeRoom(code: code).makeAsyncIterator()
                #expect(await next(&rooms)??.version == 1)
                _ = try await bo.joinRoom(code: code, playerName: "Bo")
                #expect(await next(&rooms)??.players.map(\.name) == ["Ann", "Bo"])
                _ = try await bo.setReady(roomCode: code, ready: true)
                let readied = await next(&rooms)
                #expect(readied??.version == 3)
                #expect(readied??.players.last?.isReady == true)

                // A second stream for the same room starts from the current state.
                var again = try await ann.observeRoom(code: code).makeAsyncIterator()
                #expect(await next(&again)??.version == 3)

                try await bo.leaveRoom(roomCode: code)
                #expect(await next(&rooms)??.version == 4)
                try await ann.leaveRoom(roomCode: code)
                let deleted = await next(&rooms)
                #expect(deleted != nil && deleted! == nil)
                #expect(await next(&rooms) == nil)
            }
        }
        await server.stop()
    }

    @Test("Observing a room that does not exist throws the server's sentence")
    func observeMissingRoom() async throws {
        let server = try await FakeServer.start()
        _ = try await withRunningClient(ParlorClient(configuration: testConfiguration(try server.address))) { client in
            await #expect(throws: ParlorClientError.server(code: .roomNotFound, status: .notFound, message: "Room NOROOM was not found.")) {
                _ = try await client.observeRoom(code: "NOROOM")
            }
        }
        await server.stop()
    }

    @Test("A dropped connection comes back as the same user, and the same stream goes on")
    func reconnectResumes() async throws {
        let server = try await FakeServer.start()
        let client = ParlorClient(configuration: testConfiguration(try server.address))
        try await withRunningClient(client) { client in
            var states = client.connectionStates().makeAsyncIterator()
            let seat = try await client.createRoom(pointLimit: 201, pointValue: 25, playerCount: 4, playerName: "Ann")
            let code = seat.room.id.rawValue
            var rooms = try await client.observeRoom(code: code).makeAsyncIterator()
            #expect(await next(&rooms)??.version == 1)

            await server.backend.dropConnections()
            var seen: [ConnectionState] = []
            while let state = await next(&states) {
                seen.append(state)
                if case .connected = state, seen.contains(where: { if case .reconnecting = $0 { true } else { false } }) { break }
            }
            #expect(seen.contains(.connected(userId: seat.currentUserId)))
            #expect(seen.contains { if case .reconnecting(1, let reason) = $0 { reason == "the server is restarting or going away" } else { false } })
            #expect(client.userId == seat.currentUserId)
            #expect(server.backend.helloTokens == [nil, "token-1"])

            // The re-subscription repeats version 1: it is not delivered again. The next change is.
            let stranger = UserID("00000000-0000-4000-8000-0000000000ff")!
            try await server.backend.apply(.join(playerName: "Bo"), by: stranger, in: code)
            let after = await next(&rooms)
            #expect(after??.version == 2)
            #expect(after??.players.map(\.name) == ["Ann", "Bo"])
        }
        await server.stop()
    }

    @Test("A server restart is a short reconnect: requests made meanwhile wait and succeed")
    func serverRestart() async throws {
        let backend = FakeBackend()
        let first = try await FakeServer.startRestartable(backend: backend)
        let port = first.port
        let client = ParlorClient(configuration: testConfiguration(try first.address))
        try await withRunningClient(client) { client in
            let seat = try await client.createRoom(pointLimit: 201, pointValue: 25, playerCount: 4, playerName: "Ann")
            var rooms = try await client.observeRoom(code: seat.room.id.rawValue).makeAsyncIterator()
            #expect(await next(&rooms)??.version == 1)

            await first.stop()
            #expect(await eventually { if case .reconnecting = client.connectionState { true } else { false } })
            async let readied = client.getRoom(code: seat.room.id.rawValue)
            try await Task.sleep(for: .milliseconds(150))
            let second = try await FakeServer.restart(backend: backend, port: port)
            #expect(try await readied.version == 1)
            #expect(client.connectionState == .connected(userId: seat.currentUserId))

            let stranger = UserID("00000000-0000-4000-8000-0000000000fe")!
            try await backend.apply(.join(playerName: "Cy"), by: stranger, in: seat.room.id.rawValue)
            #expect(await next(&rooms)??.version == 2)
            await second.stop()
        }
    }

    @Test("A connection that drops while signing in is replaced at once, not after the request timeout")
    func dropDuringSignIn() async throws {
        let server = try await FakeServer.start()
        server.backend.setSilent([Operation.hello.name])
        var configuration = testConfiguration(try server.address)
        configuration.requestTimeout = .seconds(20)
        try await withRunningClient(ParlorClient(configuration: configuration)) { client in
            #expect(await eventually { server.backend.received.contains("hello") })
            server.backend.setSilent([])
            let dropped = ContinuousClock.now
            await server.backend.dropConnections()
            _ = try await client.currentUserID()
            #expect(ContinuousClock.now - dropped < .seconds(5))
        }
        await server.stop()
    }

    @Test("A request a restarting node (1012) closed on unanswered goes again on the next connection")
    func unansweredBeforeRestartIsSentAgain() async throws {
        let server = try await FakeServer.start()
        try await withRunningClient(ParlorClient(configuration: testConfiguration(try server.address))) { client in
            let seat = try await client.createRoom(pointLimit: 201, pointValue: 25, playerCount: 4, playerName: "Ann")
            server.backend.setSilent([Operation.getRoom.name])
            async let fetched = client.getRoom(code: seat.room.id.rawValue)
            #expect(await eventually { server.backend.received.contains("getRoom") })
            server.backend.setSilent([])
            await server.backend.dropConnections(code: .serviceRestart)
            #expect(try await fetched.version == 1)
            #expect(server.backend.received.filter { $0 == "getRoom" }.count == 2, "\(server.backend.received)")
        }
        await server.stop()
    }

    @Test("A request whose connection went away (1001) unanswered fails: its outcome is unknown")
    func unansweredBeforeGoingAwayFails() async throws {
        let server = try await FakeServer.start()
        try await withRunningClient(ParlorClient(configuration: testConfiguration(try server.address))) { client in
            let seat = try await client.createRoom(pointLimit: 201, pointValue: 25, playerCount: 4, playerName: "Ann")
            server.backend.setSilent([Operation.setReady.name])
            let readied = Task { try await client.setReady(roomCode: seat.room.id.rawValue, ready: true) }
            #expect(await eventually { server.backend.received.contains("setReady") })
            await server.backend.dropConnections()
            await #expect(throws: ParlorClientError.connectionLost(operation: "setReady")) { try await readied.value }
            #expect(server.backend.received.filter { $0 == "setReady" }.count == 1, "\(server.backend.received)")
        }
        await server.stop()
    }

    @Test("A room deleted while disconnected ends its stream with nil")
    func deletedWhileAway() async throws {
        let server = try await FakeServer.start()
        let client = ParlorClient(configuration: testConfiguration(try server.address))
        try await withRunningClient(client) { client in
            let seat = try await client.createRoom(pointLimit: 201, pointValue: 25, playerCount: 4, playerName: "Ann")
            var rooms = try await client.observeRoom(code: seat.room.id.rawValue).makeAsyncIterator()
            #expect(await next(&rooms)??.version == 1)
            server.backend.state.withLockedValue { $0.rooms[seat.room.id.rawValue] = nil }
            await server.backend.dropConnections()
            let deleted = await next(&rooms)
            #expect(deleted != nil && deleted! == nil)
            #expect(await next(&rooms) == nil)
        }
        await server.stop()
    }

    @Test("Dropping the last stream of a room unsubscribes it")
    func unsubscribeOnDrop() async throws {
        let server = try await FakeServer.start()
        try await withRunningClient(ParlorClient(configuration: testConfiguration(try server.address))) { client in
            let code = try await client.createRoom(pointLimit: 201, pointValue: 25, playerCount: 4, playerName: "Ann").room.id.rawValue
            do {
                var rooms = try await client.observeRoom(code: code).makeAsyncIterator()
                #expect(await next(&rooms)??.version == 1)
            }
            #expect(await eventually { server.backend.received.contains("unsubscribe") })
        }
        await server.stop()
    }

    @Test("The token is kept in the store, so a new client is the same user")
    func tokenResumesAcrossClients() async throws {
        let server = try await FakeServer.start()
        let tokens = InMemoryTokenStore()
        let first = try await withRunningClient(ParlorClient(configuration: testConfiguration(try server.address, tokens: tokens))) {
            try await $0.currentUserID()
        }
        #expect(tokens.token(for: try server.address.url) == "token-1")
        let second = try await withRunningClient(ParlorClient(configuration: testConfiguration(try server.address, tokens: tokens))) {
            try await $0.currentUserID()
        }
        #expect(first == second)
        var other = testConfiguration(try server.address, tokens: tokens)
        other.profile = "bo"
        let third = try await withRunningClient(ParlorClient(configuration: other)) { try await $0.currentUserID() }
        #expect(third != first)
        await server.stop()
    }
}
