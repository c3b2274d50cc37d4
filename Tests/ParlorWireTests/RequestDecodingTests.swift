import ParlorRules
import ParlorWire
import Testing

@Suite struct RequestDecodingTests {
    static let u = "00000000-0000-4000-8000-000000000002"

    static let cases: [(String, Operation)] = [
        (#"{"id":1,"op":"hello","args":{"token":"abc"}}"#, .hello(HelloArguments(token: "abc"))),
        (#"{"id":1,"op":"hello"}"#, .hello(HelloArguments())),
        (#"{"id":1,"op":"hello","args":{"jwt":"e.y.j"}}"#, .hello(HelloArguments(jwt: "e.y.j"))),
        (#"{"id":1,"op":"refreshAuth","args":{"jwt":"e.y.j"}}"#, .refreshAuth(RefreshAuthArguments(jwt: "e.y.j"))),
        (#"{"id":1,"op":"linkAccount","args":{"jwt":"e.y.j"}}"#, .linkAccount(LinkAccountArguments(jwt: "e.y.j"))),
        (#"{"id":1,"op":"createRoom","args":{"pointLimit":200,"pointValue":25,"playerCount":4,"playerName":"Bo"}}"#,
         .createRoom(CreateRoomArguments(pointLimit: 200, pointValue: 25, playerCount: 4, playerName: "Bo"))),
        (#"{"id":1,"op":"joinRoom","args":{"code":"A1B2C3","playerName":"Bo"}}"#,
         .joinRoom(JoinRoomArguments(code: "A1B2C3", playerName: "Bo"))),
        (#"{"id":1,"op":"setReady","args":{"roomCode":"A1B2C3","playerId":"\#(u)","ready":true}}"#,
         .setReady(SetReadyArguments(roomCode: "A1B2C3", playerId: user(2), ready: true))),
        (#"{"id":1,"op":"startGame","args":{"roomCode":"A1B2C3"}}"#, .startRoomGame(RoomCodeArguments(roomCode: "A1B2C3"))),
        (#"{"id":1,"op":"startGame","args":{"lobbyId":"L1"}}"#, .startLobbyGame(StartLobbyGameArguments(lobbyId: "L1"))),
        (#"{"id":1,"op":"startGame","args":{"lobbyId":"L1","gameId":"word-start-s"}}"#,
         .startLobbyGame(StartLobbyGameArguments(lobbyId: "L1", gameId: "word-start-s"))),
        (#"{"id":1,"op":"leaveRoom","args":{"roomCode":"A1B2C3","playerId":"\#(u)"}}"#,
         .leaveRoom(LeaveRoomArguments(roomCode: "A1B2C3", playerId: user(2)))),
        (#"{"id":1,"op":"observeRoom","args":{"code":"A1B2C3"}}"#, .observeRoom(CodeArguments(code: "A1B2C3"))),
        (#"{"id":1,"op":"unsubscribe","args":{"subscription":3}}"#, .unsubscribe(UnsubscribeArguments(subscription: 3))),
        (#"{"id":1,"op":"submitScore","args":{"roomCode":"A1B2C3","playerId":"\#(u)","round":2,"score":40}}"#,
         .submitScore(SubmitScoreArguments(roomCode: "A1B2C3", playerId: user(2), round: 2, score: 40))),
        (#"{"id":1,"op":"nextRound","args":{"roomCode":"A1B2C3"}}"#, .nextRound(RoomCodeArguments(roomCode: "A1B2C3"))),
        (#"{"id":1,"op":"getRoom","args":{"code":"A1B2C3"}}"#, .getRoom(CodeArguments(code: "A1B2C3"))),
        (#"{"id":1,"op":"listGames","args":{"userId":"\#(u)","before":"2026-01-30T00:00:00.000Z","limit":5}}"#,
         .listGames(ListGamesArguments(userId: user(2), before: "2026-01-30T00:00:00.000Z", limit: 5))),
        (#"{"id":1,"op":"listGames","args":{}}"#, .listGames(ListGamesArguments())),
        (#"{"id":1,"op":"createLobby","args":{"user":{"username":"Ann","colorNumber":2,"emojiNumber":4}}}"#,
         .createLobby(CreateLobbyArguments(user: LobbyUserArguments(username: "Ann", colorNumber: 2, emojiNumber: 4)))),
        (#"{"id":1,"op":"joinLobby","args":{"lobbyCode":"AXDF","user":{"username":"Ann","colorNumber":2,"emojiNumber":4}}}"#,
         .joinLobby(JoinLobbyArguments(lobbyCode: "AXDF", user: LobbyUserArguments(username: "Ann", colorNumber: 2, emojiNumber: 4)))),
        (#"{"id":1,"op":"submitWord","args":{"lobbyId":"L1","word":"banana"}}"#,
         .submitWord(SubmitWordArguments(lobbyId: "L1", word: "banana"))),
        (#"{"id":1,"op":"leaveLobby","args":{"lobbyId":"L1"}}"#, .leaveLobby(LobbyIdArguments(lobbyId: "L1"))),
        (#"{"id":1,"op":"observeLobby","args":{"lobbyId":"L1"}}"#, .observeLobby(LobbyIdArguments(lobbyId: "L1"))),
        (#"{"id":1,"op":"getCatalog","args":{"since":3}}"#, .getCatalog(GetCatalogArguments(since: 3))),
        (#"{"id":1,"op":"getCatalog"}"#, .getCatalog(GetCatalogArguments())),
        (#"{"id":1,"op":"observeCatalog","args":{}}"#, .observeCatalog(EmptyArguments())),
        (#"{"id":1,"op":"observeCatalog","args":null}"#, .observeCatalog(EmptyArguments())),
        (#"{"id":1,"op":"createMatch","args":{"gameType":"501","outRule":"master","sets":3,"playerName":"Ann"}}"#,
         .createMatch(CreateMatchArguments(gameType: "501", outRule: "master", sets: 3, playerName: "Ann"))),
        (#"{"id":1,"op":"joinMatch","args":{"code":"QX7KM","playerName":"Bo"}}"#,
         .joinMatch(JoinMatchArguments(code: "QX7KM", playerName: "Bo"))),
        (#"{"id":1,"op":"addGuest","args":{"code":"QX7KM","name":"Gil"}}"#, .addGuest(AddGuestArguments(code: "QX7KM", name: "Gil"))),
        (#"{"id":1,"op":"removePlayer","args":{"code":"QX7KM","playerId":"\#(u)"}}"#,
         .removePlayer(RemovePlayerArguments(code: "QX7KM", playerId: user(2)))),
        (#"{"id":1,"op":"startMatch","args":{"code":"QX7KM"}}"#, .startMatch(MatchCodeArguments(code: "QX7KM"))),
        (#"{"id":1,"op":"leaveMatch","args":{"code":"QX7KM"}}"#, .leaveMatch(MatchCodeArguments(code: "QX7KM"))),
        (#"{"id":1,"op":"recordVisit","args":{"code":"QX7KM","playerId":"\#(u)","darts":["T20","t20","D16"]}}"#,
         .recordVisit(RecordVisitArguments(code: "QX7KM", playerId: user(2), darts: ["T20", "t20", "D16"]))),
        (#"{"id":1,"op":"recordVisit","args":{"code":"QX7KM","playerId":"\#(u)","total":100}}"#,
         .recordVisit(RecordVisitArguments(code: "QX7KM", playerId: user(2), total: 100))),
        (#"{"id":1,"op":"editLastVisit","args":{"code":"QX7KM","visit":7,"total":45}}"#,
         .editLastVisit(EditLastVisitArguments(code: "QX7KM", visit: 7, total: 45))),
        (#"{"id":1,"op":"observeMatch","args":{"code":"QX7KM"}}"#, .observeMatch(MatchCodeArguments(code: "QX7KM"))),
        (#"{"id":1,"op":"getMatch","args":{"code":"QX7KM"}}"#, .getMatch(MatchCodeArguments(code: "QX7KM"))),
        (#"{"id":1,"op":"checkout","args":{"score":170,"darts":3}}"#, .checkout(CheckoutArguments(score: 170, darts: 3))),
        (#"{"id":1,"op":"listMatches"}"#, .listMatches(ListGamesArguments())),
        (#"{"id":1,"op":"observeFriends"}"#, .observeFriends(EmptyArguments())),
        (#"{"id":1,"op":"createQuiz","args":{"playerName":"Ann","revealSpeed":"fast","timerDuration":20,"sessionLength":"endless","albums":["Japan"]}}"#,
         .createQuiz(CreateQuizArguments(
            playerName: "Ann", settings: QuizSettingsFields(revealSpeed: "fast", timerDuration: 20, sessionLength: "endless", albums: ["Japan"])))),
        (#"{"id":1,"op":"joinQuiz","args":{"code":"QWERT","playerName":"Bo"}}"#, .joinQuiz(JoinQuizArguments(code: "QWERT", playerName: "Bo"))),
        (#"{"id":1,"op":"leaveQuiz","args":{"code":"QWERT"}}"#, .leaveQuiz(QuizCodeArguments(code: "QWERT"))),
        (#"{"id":1,"op":"updateQuizSettings","args":{"code":"QWERT","timerDuration":45}}"#,
         .updateQuizSettings(UpdateQuizSettingsArguments(code: "QWERT", settings: QuizSettingsFields(revealSpeed: nil, timerDuration: 45)))),
        (#"{"id":1,"op":"startQuiz","args":{"code":"QWERT"}}"#, .startQuiz(QuizCodeArguments(code: "QWERT"))),
        (#"{"id":1,"op":"submitGuess","args":{"code":"QWERT","latitude":48.8566,"longitude":-2.5}}"#,
         .submitGuess(SubmitGuessArguments(code: "QWERT", latitude: 48.8566, longitude: -2.5))),
        (#"{"id":1,"op":"reveal","args":{"code":"QWERT"}}"#, .reveal(QuizCodeArguments(code: "QWERT"))),
        (#"{"id":1,"op":"nextPhoto","args":{"code":"QWERT"}}"#, .nextPhoto(QuizCodeArguments(code: "QWERT"))),
        (#"{"id":1,"op":"quitQuiz","args":{"code":"QWERT"}}"#, .quitQuiz(QuizCodeArguments(code: "QWERT"))),
        (#"{"id":1,"op":"getQuiz","args":{"code":"QWERT"}}"#, .getQuiz(QuizCodeArguments(code: "QWERT"))),
        (#"{"id":1,"op":"observeQuiz","args":{"code":"QWERT"}}"#, .observeQuiz(QuizCodeArguments(code: "QWERT"))),
        (#"{"id":1,"op":"quizSettings"}"#, .quizSettings(EmptyArguments())),
        (#"{"id":1,"op":"saveQuizSettings","args":{"revealSpeed":"slow"}}"#, .saveQuizSettings(QuizSettingsFields(revealSpeed: "slow"))),
        (#"{"id":1,"op":"watchLobby","args":{"lobbyCode":"GDTS"}}"#, .watchLobby(LobbyCodeArguments(lobbyCode: "GDTS"))),
        (#"{"id":1,"op":"listHistory","args":{"limit":5}}"#, .listHistory(ListGamesArguments(limit: 5))),
        (#"{"id":1,"op":"getGameRecord","args":{"code":"4093321","from":3}}"#, .getGameRecord(GameRecordArguments(code: "4093321", from: 3))),
        (#"{"id":1,"op":"createInvite","args":{"code":"K7Q2PX","ttlSeconds":600}}"#, .createInvite(CreateInviteArguments(code: "K7Q2PX", ttlSeconds: 600))),
        (#"{"id":1,"op":"lockGame","args":{"code":"K7Q2PX","kind":"darts"}}"#, .lockGame(GameAccessArguments(code: "K7Q2PX", kind: "darts"))),
        (#"{"id":1,"op":"unlockGame","args":{"code":"K7Q2PX"}}"#, .unlockGame(GameAccessArguments(code: "K7Q2PX"))),
        (#"{"id":1,"op":"getGameAccess","args":{"code":"K7Q2PX"}}"#, .getGameAccess(GameAccessArguments(code: "K7Q2PX"))),
        (#"{"id":1,"op":"transferHost","args":{"code":"K7Q2PX","to":"00000000-0000-4000-8000-00000000000b"}}"#,
         .transferHost(TransferHostArguments(code: "K7Q2PX", to: UserID("00000000-0000-4000-8000-00000000000b")!))),
        (#"{"id":1,"op":"removeLobbyPlayer","args":{"lobbyId":"L1","userId":"00000000-0000-4000-8000-00000000000b"}}"#,
         .removeLobbyPlayer(RemoveLobbyPlayerArguments(lobbyId: "L1", userId: UserID("00000000-0000-4000-8000-00000000000b")!))),
        (#"{"id":1,"op":"rematchRoom","args":{"roomCode":"K7Q2ZD"}}"#, .rematchRoom(RoomCodeArguments(roomCode: "K7Q2ZD"))),
        (#"{"id":1,"op":"rematchLobby","args":{"lobbyId":"L1"}}"#, .rematchLobby(LobbyIdArguments(lobbyId: "L1"))),
        (#"{"id":1,"op":"undoLastVisit","args":{"code":"ACDEF","visit":3}}"#, .undoLastVisit(UndoLastVisitArguments(code: "ACDEF", visit: 3))),
        (#"{"id":1,"op":"createTicTacToe","args":{"playerName":"Ann"}}"#, .createTicTacToe(CreateTicTacToeArguments(playerName: "Ann"))),
        (#"{"id":1,"op":"joinTicTacToe","args":{"code":"0412795","playerName":"Bo"}}"#,
         .joinTicTacToe(JoinTicTacToeArguments(code: "0412795", playerName: "Bo"))),
        (#"{"id":1,"op":"placeMark","args":{"code":"0412795","cell":4}}"#, .placeMark(PlaceMarkArguments(code: "0412795", cell: 4))),
        (#"{"id":1,"op":"leaveTicTacToe","args":{"code":"0412795"}}"#, .leaveTicTacToe(TicTacToeCodeArguments(code: "0412795"))),
        (#"{"id":1,"op":"getTicTacToe","args":{"code":"0412795"}}"#, .getTicTacToe(TicTacToeCodeArguments(code: "0412795"))),
        (#"{"id":1,"op":"observeTicTacToe","args":{"code":"0412795"}}"#, .observeTicTacToe(TicTacToeCodeArguments(code: "0412795"))),
        (#"{"id":1,"op":"rematchTicTacToe","args":{"code":"0412795"}}"#, .rematchTicTacToe(TicTacToeCodeArguments(code: "0412795"))),
        (#"{"id":1,"op":"rematchMatch","args":{"code":"QX7KM"}}"#, .rematchMatch(MatchCodeArguments(code: "QX7KM"))),
        (#"{"id":1,"op":"rematchQuiz","args":{"code":"QWERT"}}"#, .rematchQuiz(QuizCodeArguments(code: "QWERT"))),
        (#"{"id":1,"op":"removeQuizPlayer","args":{"code":"QWERT","playerId":"\#(u)"}}"#,
         .removeQuizPlayer(RemoveQuizPlayerArguments(code: "QWERT", playerId: user(2)))),
        (#"{"id":1,"op":"removeTicTacToePlayer","args":{"code":"0412795","playerId":"\#(u)"}}"#,
         .removeTicTacToePlayer(RemoveTicTacToePlayerArguments(code: "0412795", playerId: user(2)))),
    ]

    @Test(arguments: cases)
    func decodesEveryOperation(frame: String, expected: Operation) throws {
        #expect(try decodeOK(frame) == Request(id: .number(1), operation: expected))
    }

    @Test func everyOperationNameIsCovered() {
        let covered = Set(Self.cases.map(\.1.name))
        #expect(covered == Set(OperationName.allCases))
    }

    @Test(arguments: Self.cases.map(\.1))
    func requestsRoundTrip(operation: Operation) throws {
        let request = Request(id: .string("r-1"), operation: operation)
        #expect(Request.decode(try request.encoded()) == .success(request))
    }

    @Test func idsAreEchoedAsGiven() throws {
        #expect(try decodeOK(#"{"id":7,"op":"hello"}"#).id == .number(7))
        #expect(try decodeOK(#"{"id":"7","op":"hello"}"#).id == .string("7"))
        #expect(try decodeOK(#"{"op":"hello"}"#).id == .null)
        #expect(try decodeOK(#"{"id":null,"op":"hello"}"#).id == .null)
        #expect(try decodeOK(#"{"id":-9007199254740993,"op":"hello"}"#).id == .number(-9_007_199_254_740_993))
    }

    @Test func badIdsAreBadRequestsWithANullId() throws {
        for frame in [#"{"id":1.5,"op":"hello"}"#, #"{"id":1e300,"op":"hello"}"#, #"{"id":true,"op":"hello"}"#, #"{"id":{},"op":"hello"}"#,
                      #"{"id":"\#(String(repeating: "x", count: 257))","op":"hello"}"#] {
            let bad = try decodeBad(frame)
            #expect(bad.id == .null && bad.field == "id", "\(bad.message)")
            #expect(bad.wireError.code == .badRequest && bad.wireError.status == .invalidArgument)
        }
    }

    @Test func malformedFrames() throws {
        for frame in ["{", "", "nope", #"{"id":7,"op":"hello""#] {
            let bad = try decodeBad(frame)
            #expect(bad.id == .null && bad.message == "The frame is not valid JSON.", "\(frame)")
        }
        for frame in ["[1,2]", "7", "\"hello\"", "null"] {
            let bad = try decodeBad(frame)
            #expect(bad.message == "A request must be a JSON object.", "\(frame): \(bad.message)")
        }
    }

    @Test func unknownAndMissingOperations() throws {
        let unknown = try decodeBad(#"{"id":4,"op":"dropTables","args":{}}"#)
        #expect(unknown.id == .number(4) && unknown.field == "op")
        #expect(unknown.message == #"op "dropTables" is not a known operation."#)
        let missing = try decodeBad(#"{"id":"a","args":{}}"#)
        #expect(missing.id == .string("a") && missing.field == "op" && missing.message == "op is missing.")
        let mistyped = try decodeBad(#"{"id":"a","op":7}"#)
        #expect(mistyped.field == "op" && mistyped.message == "op must be a string.")
    }

    @Test func missingAndMistypedArgumentsNameTheField() throws {
        let noArgs = try decodeBad(#"{"id":5,"op":"joinRoom"}"#)
        #expect(noArgs.id == .number(5) && noArgs.field == "args" && noArgs.message == "args is missing.")
        let missing = try decodeBad(#"{"id":5,"op":"joinRoom","args":{"code":"A1B2C3"}}"#)
        #expect(missing.field == "args.playerName" && missing.message == "args.playerName is missing.")
        let wrongType = try decodeBad(#"{"id":5,"op":"createRoom","args":{"pointLimit":"200","pointValue":1,"playerCount":2,"playerName":"Bo"}}"#)
        #expect(wrongType.field == "args.pointLimit" && wrongType.message == "args.pointLimit must be an integer.")
        let fraction = try decodeBad(#"{"id":5,"op":"createRoom","args":{"pointLimit":200.5,"pointValue":1,"playerCount":2,"playerName":"Bo"}}"#)
        #expect(fraction.field == "args.pointLimit" && fraction.id == .number(5) && fraction.message == "args.pointLimit must be an integer.")
        let huge = try decodeBad(#"{"id":5,"op":"createRoom","args":{"pointLimit":1e300,"pointValue":1,"playerCount":2,"playerName":"Bo"}}"#)
        #expect(huge.field == "args.pointLimit" && huge.message == "args.pointLimit must be an integer.")
        let null = try decodeBad(#"{"id":5,"op":"joinRoom","args":{"code":null,"playerName":"Bo"}}"#)
        #expect(null.field == "args.code", "\(null.message)")
        let nested = try decodeBad(#"{"id":5,"op":"createLobby","args":{"user":{"username":"A","colorNumber":"red","emojiNumber":1}}}"#)
        #expect(nested.field == "args.user.colorNumber" && nested.message == "args.user.colorNumber must be an integer.")
        let argsNotObject = try decodeBad(#"{"id":5,"op":"joinRoom","args":[1]}"#)
        #expect(argsNotObject.field == "args" && argsNotObject.message == "args must be an object.")
        let badUUID = try decodeBad(#"{"id":5,"op":"setReady","args":{"roomCode":"A1B2C3","playerId":"bob","ready":true}}"#)
        #expect(badUUID.field == "args.playerId" && badUUID.message == "args.playerId must be a UUID.")
        let readyText = try decodeBad(#"{"id":5,"op":"setReady","args":{"roomCode":"A1B2C3","playerId":"\#(Self.u)","ready":"yes"}}"#)
        #expect(readyText.message == "args.ready must be true or false.")
    }

    @Test func startGameNeedsExactlyOneTarget() throws {
        for args in [#"{}"#, #"{"roomCode":"A1B2C3","lobbyId":"L1"}"#, #"{"gameId":"g"}"#] {
            let bad = try decodeBad(#"{"id":9,"op":"startGame","args":\#(args)}"#)
            #expect(bad.id == .number(9) && bad.field == "args", "\(args)")
            #expect(bad.message == "args must have exactly one of roomCode (rummy) or lobbyId (word lobby).")
        }
    }

    @Test func extraFieldsAreIgnoredAndLongStringsPassThrough() throws {
        let long = String(repeating: "é", count: 100_000)
        let request = try decodeOK(#"{"id":1,"op":"joinRoom","extra":[1,{"x":2}],"args":{"code":"\#(long)","playerName":"Bo","more":true}}"#)
        #expect(request.operation == .joinRoom(JoinRoomArguments(code: long, playerName: "Bo")))
    }

    @Test func listGamesHelpers() throws {
        #expect(try ListGamesArguments().checkedLimit() == 20)
        #expect(try ListGamesArguments(limit: 1).checkedLimit() == 1)
        #expect(try ListGamesArguments(limit: 100).checkedLimit() == 100)
        for limit in [0, -1, 101, 100_000] {
            #expect(throws: WireError(.invalidInput, "limit must be an integer from 1 to 100 (got \(limit)).")) {
                try ListGamesArguments(limit: limit).checkedLimit()
            }
        }
        #expect(ListGamesArguments(before: "2026-01-30T00:00:00.000Z").beforeInstant?.iso8601 == "2026-01-30T00:00:00.000Z")
        #expect(ListGamesArguments(before: "yesterday").beforeInstant == nil)
    }
}
