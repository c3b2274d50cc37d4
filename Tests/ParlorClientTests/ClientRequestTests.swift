import ParlorClient
import ParlorRules
import ParlorTestSupport
import ParlorWire
import Testing

/// Requests over a real socket to a scripted server: typed results, the server's errors as sentences,
/// and every way a request can fail on the client's side.
@Suite("ParlorClient requests", .timeLimit(.minutes(1)))
struct ClientRequestTests {
    @Test("Requests return typed views and refusals carry the server's code and sentence")
    func typedResultsAndServerErrors() async throws {
        let server = try await FakeServer.start()
        let ann = ParlorClient(configuration: testConfiguration(try server.address))
        let bo = ParlorClient(configuration: testConfiguration(try server.address))
        let cy = ParlorClient(configuration: testConfiguration(try server.address))
        try await withRunningClient(ann) { ann in
            try await withRunningClient(bo) { bo in
                try await withRunningClient(cy) { cy in
                    let seat = try await ann.createRoom(pointLimit: 201, pointValue: 25, playerCount: 2, playerName: "Ann")
                    #expect(seat.room.players.map(\.name) == ["Ann"])
                    #expect(seat.currentUserId == ann.userId)
                    let code = seat.room.id.rawValue

                    let joined = try await bo.joinRoom(code: code.lowercased(), playerName: "Bo")
                    #expect(joined.room.players.map(\.name) == ["Ann", "Bo"])
                    let ready = try await bo.setReady(roomCode: code, ready: true)
                    #expect(ready.players.last?.isReady == true)
                    #expect(ready.version == 3)

                    let full = ParlorClientError.server(code: .roomFull, status: .resourceExhausted, message: "Room \(code) is full (2 of 2 seats).")
                    await #expect(throws: full) { try await cy.joinRoom(code: code, playerName: "Cy") }
                    #expect(full.description == "Room \(code) is full (2 of 2 seats).")

                    let notModerator = ParlorClientError.server(
                        code: .notModerator, status: .permissionDenied, message: "Only the moderator can start the game.")
                    await #expect(throws: notModerator) { try await bo.startGame(roomCode: code) }

                    let started = try await ann.startGame(roomCode: code)
                    #expect(started.isStarted)
                    let scored = try await bo.submitScore(roomCode: code, round: 1, score: 12)
                    #expect(scored.players.last?.scores.first == 12)
                    try await bo.leaveRoom(roomCode: code)
                    #expect(try await ann.getRoom(code: code).players.map(\.name) == ["Ann"])
                }
            }
        }
        await server.stop()
    }

    @Test("A request the server never answers fails with .timeout")
    func timeout() async throws {
        let server = try await FakeServer.start()
        server.backend.setSilent([Operation.getRoom.name])
        var configuration = testConfiguration(try server.address)
        configuration.requestTimeout = .seconds(1)
        try await withRunningClient(ParlorClient(configuration: configuration)) { client in
            #expect(await eventually { client.connectionState.isConnected })
            await #expect(throws: ParlorClientError.timeout(operation: "getRoom", after: .seconds(1))) {
                try await client.getRoom(code: "ROOM01")
            }
            // The connection is still fine.
            _ = try await client.createRoom(pointLimit: 150, pointValue: 10, playerCount: 2, playerName: "Ann")
        }
        await server.stop()
    }

    @Test("A request in flight when the connection drops fails with .connectionLost")
    func connectionLost() async throws {
        let server = try await FakeServer.start()
        server.backend.setSilent([Operation.getRoom.name])
        try await withRunningClient(ParlorClient(configuration: testConfiguration(try server.address))) { client in
            _ = try await client.currentUserID()
            async let outcome: Void = {
                await #expect(throws: ParlorClientError.connectionLost(operation: "getRoom")) {
                    try await client.getRoom(code: "ROOM01")
                }
            }()
            #expect(await eventually { server.backend.received.contains("getRoom") })
            await server.backend.dropConnections()
            await outcome
        }
        await server.stop()
    }

    @Test("With no server, requests fail with .notConnected and say why")
    func notConnected() async throws {
        let placeholder = try await FakeServer.start()
        let address = try placeholder.address
        await placeholder.stop()
        var configuration = testConfiguration(address)
        configuration.requestTimeout = .milliseconds(400)
        let client = ParlorClient(configuration: configuration)
        try await withRunningClient(client) { client in
            // The first attempt has failed (so there is a reason to give) before the request is made.
            #expect(await eventually { if case .reconnecting = client.connectionState { true } else { false } })
            do {
                _ = try await client.getRoom(code: "ROOM01")
                Issue.record("expected no connection")
            } catch let error as ParlorClientError {
                guard case .notConnected(let reason) = error else {
                    Issue.record("expected .notConnected, got \(error)")
                    return
                }
                #expect(reason.contains("connection refused"))
                #expect(error.description.hasPrefix("Not connected to the Parlor server: nothing is listening at 127.0.0.1:"))
            }
            guard case .reconnecting = client.connectionState else {
                Issue.record("expected reconnecting, got \(client.connectionState)")
                return
            }
        }
        #expect(client.connectionState == .closed(reason: nil))
        await #expect(throws: ParlorClientError.notConnected(reason: "the client was closed")) {
            try await client.getRoom(code: "ROOM01")
        }
    }

    @Test("Pending requests are bounded")
    func pendingBound() async throws {
        let server = try await FakeServer.start()
        server.backend.setSilent([Operation.getRoom.name])
        var configuration = testConfiguration(try server.address)
        configuration.maxPendingRequests = 1
        configuration.requestTimeout = .seconds(3)
        try await withRunningClient(ParlorClient(configuration: configuration)) { client in
            #expect(await eventually { client.connectionState.isConnected })
            async let first: Void = {
                await #expect(throws: ParlorClientError.timeout(operation: "getRoom", after: .seconds(3))) {
                    try await client.getRoom(code: "ROOM01")
                }
            }()
            #expect(await eventually { server.backend.received.contains("getRoom") })
            await #expect(throws: ParlorClientError.tooManyPendingRequests(limit: 1)) {
                try await client.getRoom(code: "ROOM02")
            }
            await first
        }
        await server.stop()
    }

    @Test("A result of the wrong shape is a protocol violation, not a crash")
    func protocolViolation() async throws {
        let server = try await FakeServer.start()
        try await withRunningClient(ParlorClient(configuration: testConfiguration(try server.address))) { client in
            let seat = try await client.createRoom(pointLimit: 150, pointValue: 10, playerCount: 2, playerName: "Ann")
            do {
                _ = try await client.send(.getRoom(CodeArguments(code: seat.room.id.rawValue)), as: HelloResult.self)
                Issue.record("expected a protocol violation")
            } catch let error as ParlorClientError {
                guard case .protocolViolation(let detail) = error else {
                    Issue.record("expected .protocolViolation, got \(error)")
                    return
                }
                #expect(detail.hasPrefix("the answer to getRoom could not be read"))
            }
        }
        await server.stop()
    }

    @Test("run() runs once; a closed client refuses requests")
    func runOnce() async throws {
        let server = try await FakeServer.start()
        let client = ParlorClient(configuration: testConfiguration(try server.address))
        try await withRunningClient(client) { client in
            _ = try await client.currentUserID()
        }
        await #expect(throws: ParlorClientError.self) { try await client.run() }
        await #expect(throws: ParlorClientError.notConnected(reason: "the client was closed")) {
            try await client.getRoom(code: "ROOM01")
        }
        await server.stop()
    }
}
