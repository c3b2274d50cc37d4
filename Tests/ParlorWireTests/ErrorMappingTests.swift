import ParlorRules
import ParlorWire
import Testing

@Suite struct ErrorMappingTests {
    static let table: [(ErrorCode, String, ErrorStatus, Int)] = [
        (.roomNotFound, "ROOM_NOT_FOUND", .notFound, 404),
        (.roomFull, "ROOM_FULL", .resourceExhausted, 409),
        (.notModerator, "NOT_MODERATOR", .permissionDenied, 403),
        (.playerNotFound, "PLAYER_NOT_FOUND", .notFound, 404),
        (.invalidRoomCode, "INVALID_ROOM_CODE", .invalidArgument, 400),
        (.invalidState, "INVALID_STATE", .failedPrecondition, 409),
        (.invalidInput, "INVALID_INPUT", .invalidArgument, 400),
        (.networkError, "NETWORK_ERROR", .internal, 500),
        (.badRequest, "BAD_REQUEST", .invalidArgument, 400),
        (.unauthenticated, "UNAUTHENTICATED", .unauthenticated, 401),
        (.internal, "INTERNAL", .internal, 500),
        (.lobbyNotFound, "LOBBY_NOT_FOUND", .notFound, 404),
        (.lobbyNotOpen, "LOBBY_NOT_OPEN", .failedPrecondition, 400),
        (.roundNotRunning, "ROUND_NOT_RUNNING", .failedPrecondition, 400),
        (.notLobbyCreator, "NOT_LOBBY_CREATOR", .permissionDenied, 403),
        (.notLobbyMember, "NOT_LOBBY_MEMBER", .permissionDenied, 403),
        (.lobbyFull, "LOBBY_FULL", .resourceExhausted, 429),
        (.noFreeCode, "NO_FREE_CODE", .resourceExhausted, 429),
        (.tooManyWords, "TOO_MANY_WORDS", .resourceExhausted, 429),
        (.subscriptionNotFound, "SUBSCRIPTION_NOT_FOUND", .notFound, 404),
        (.rateLimited, "RATE_LIMITED", .resourceExhausted, 429),
        (.gameNotFound, "GAME_NOT_FOUND", .notFound, 404),
        (.matchNotFound, "MATCH_NOT_FOUND", .notFound, 404),
        (.matchFull, "MATCH_FULL", .resourceExhausted, 409),
        (.notHost, "NOT_HOST", .permissionDenied, 403),
        (.notYourTurn, "NOT_YOUR_TURN", .failedPrecondition, 409),
        (.invalidDarts, "INVALID_DARTS", .invalidArgument, 400),
    ]

    @Test func theShippedCodesNeverChange() {
        for (code, raw, status, http) in Self.table {
            #expect(code.rawValue == raw && code.status == status && code.httpStatus == http, "\(raw)")
            #expect(ErrorCode(rawValue: raw) == code && ErrorCode(rawValue: raw).status == status)
        }
        #expect(Set(ErrorCode.all.map(\.rawValue)).count == ErrorCode.all.count)
        #expect(Set(Self.table.map(\.0)).isSubset(of: Set(ErrorCode.all)))
        let future = ErrorCode(rawValue: "SOMETHING_NEW")
        #expect(future.status == .internal && future.httpStatus == 500)
    }

    @Test func statusStringsAreTheSeeds() {
        #expect(ErrorStatus.allCases.map(\.rawValue).contains("resource-exhausted"))
        #expect(ErrorStatus.failedPrecondition.rawValue == "failed-precondition")
        #expect(ErrorStatus.permissionDenied.defaultHTTPStatus == 403)
    }

    @Test func roomErrorsMapOneToOne() throws {
        let code = try RoomCode(parsing: "A1B2C3")
        let cases: [(RoomError, ErrorCode)] = [
            (.roomNotFound(code: "ZZZZZZ"), .roomNotFound),
            (.roomFull(code: code, capacity: 4), .roomFull),
            (.notModerator(action: "start the game"), .notModerator),
            (.playerNotFound(playerId: "x"), .playerNotFound),
            (.invalidRoomCode(CodeFormatError(kind: "Room code", problem: .wrongLength(expected: 6, got: 2))), .invalidRoomCode),
            (.invalidState(reason: "Not yet."), .invalidState),
            (.invalidInput(field: "score", reason: "score must be between 0 and 1000 (got -1)."), .invalidInput),
        ]
        #expect(cases.count == RoomError.Kind.allCases.count)
        for (error, expected) in cases {
            let wire = WireError(error)
            #expect(wire.code == expected && wire.message == error.message)
        }
        #expect(WireError(RoomError.roomFull(code: code, capacity: 4)).message == "Room A1B2C3 is full (4 of 4 seats).")
        #expect(WireError(RoomError.notModerator(action: "start the game")).message == "Only the moderator can start the game.")
    }

    @Test func lobbyErrorsMapToSpecificCodesWithTheSeedsStatus() {
        let cases: [(LobbyError, ErrorCode)] = [
            (.invalidArgument(field: "username", reason: "username must not be empty."), .invalidInput),
            (.notFound(.lobby("L1")), .lobbyNotFound),
            (.notFound(.game(id: "g")), .gameNotFound),
            (.failedPrecondition(.lobbyNotOpen), .lobbyNotOpen),
            (.failedPrecondition(.roundNotRunning), .roundNotRunning),
            (.failedPrecondition(.deadlinePassed), .roundNotRunning),
            (.failedPrecondition(.noGamesAvailable), .noGamesAvailable),
            (.permissionDenied(.notCreator(action: "start a round")), .notLobbyCreator),
            (.permissionDenied(.notMember), .notLobbyMember),
            (.resourceExhausted(.lobbyFull(capacity: 12)), .lobbyFull),
            (.resourceExhausted(.noFreeCode), .noFreeCode),
            (.resourceExhausted(.tooManyWords(limit: 500)), .tooManyWords),
            (.unauthenticated, .unauthenticated),
            (.internal("boom"), .internal),
        ]
        for (error, expected) in cases {
            let wire = WireError(error)
            #expect(wire.code == expected, "\(error)")
            #expect(wire.status.rawValue == error.status, "\(error)")
            #expect(wire.message == error.message)
        }
        #expect(WireError(CodeSpaceExhausted(attempts: 64)).code == .noFreeCode)
    }

    @Test func dartsErrorsMapToSpecificCodes() {
        let cases: [(DartsError, ErrorCode)] = [
            (.matchNotFound(code: "ACDEF"), .matchNotFound),
            (.matchFull(capacity: 2), .matchFull),
            (.notHost(action: "start the match"), .notHost),
            (.notYourTurn(expected: "Ann"), .notYourTurn),
            (.invalidDarts(reason: "\"T21\" is not a dart."), .invalidDarts),
            (.playerNotFound(playerId: "x"), .playerNotFound),
            (.invalidState(reason: "Not yet."), .invalidState),
            (.invalidInput(field: "legs", reason: "legs must be between 1 and 15 (got 0)."), .invalidInput),
        ]
        for (error, expected) in cases {
            let wire = WireError(error)
            #expect(wire.code == expected && wire.message == error.message, "\(error)")
        }
        #expect(WireError(DartsError.matchNotFound(code: String(repeating: "Z", count: 500))).message.count < 40)
    }

    @Test func wireErrorsRoundTrip() throws {
        let error = WireError(.tooManyWords, "You can submit at most 500 words in a round.")
        let bytes = try WireJSON.encode(error)
        #expect(text(bytes) == #"{"code":"TOO_MANY_WORDS","message":"You can submit at most 500 words in a round.","status":"resource-exhausted"}"#)
        #expect(try WireJSON.decode(WireError.self, from: bytes) == error)
    }
}
