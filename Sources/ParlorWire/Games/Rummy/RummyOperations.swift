import ParlorRules

// The rummy room operations (seed `rummy-room-api.md`), each declared once, with its REST route.

extension Operation {
    public static let createRoom = OperationDeclaration<CreateRoomArguments, RoomServiceResult>(
        "createRoom", routes: [.post("/rooms", status: 201)])
    public static let joinRoom = OperationDeclaration<JoinRoomArguments, RoomServiceResult>(
        "joinRoom",
        routes: [.post("/rooms/{code}/players") { request throws(WireError) in
            JoinRoomArguments(code: request.parameters[0], playerName: try request.body(PlayerNameBody.self).playerName)
        }])
    public static let setReady = OperationDeclaration<SetReadyArguments, GameRoom>(
        "setReady",
        routes: [.put("/rooms/{code}/players/{id}/ready") { request throws(WireError) in
            SetReadyArguments(
                roomCode: request.parameters[0], playerId: try player(request.parameters[1]), ready: try request.body(ReadyBody.self).ready)
        }])
    /// `startGame {roomCode}`; word lobbies share the name (`lobbyId`).
    public static let startRoomGame = OperationDeclaration<RoomCodeArguments, GameRoom>(
        "startGame", claim: OperationClaim(key: "roomCode", label: "rummy"), callable: true,
        routes: [.post("/rooms/{code}/start") { request throws(WireError) in RoomCodeArguments(roomCode: request.parameters[0]) }])
    public static let submitScore = OperationDeclaration<SubmitScoreArguments, GameRoom>(
        "submitScore",
        routes: [.post("/rooms/{code}/scores") { request throws(WireError) in
            let body = try request.body(ScoreBody.self)
            return SubmitScoreArguments(roomCode: request.parameters[0], playerId: body.playerId, round: body.round, score: body.score)
        }])
    public static let nextRound = OperationDeclaration<RoomCodeArguments, GameRoom>(
        "nextRound",
        routes: [.post("/rooms/{code}/next-round") { request throws(WireError) in RoomCodeArguments(roomCode: request.parameters[0]) }])
    public static let leaveRoom = OperationDeclaration<LeaveRoomArguments, NoResult>(
        "leaveRoom",
        routes: [.delete("/rooms/{code}/players/{id}") { request throws(WireError) in
            LeaveRoomArguments(roomCode: request.parameters[0], playerId: try player(request.parameters[1]))
        }])
    /// Anyone may read a room (the seed: "anyone can read room, for QR join").
    public static let getRoom = OperationDeclaration<CodeArguments, GameRoom>(
        "getRoom", access: .anyone,
        routes: [.get("/rooms/{code}") { request throws(WireError) in CodeArguments(code: request.parameters[0]) }])
    /// Anyone may watch a room, signed in or not (spectators).
    public static let observeRoom = OperationDeclaration<CodeArguments, Subscribed>("observeRoom", access: .anyone)
    public static let listGames = OperationDeclaration<ListGamesArguments, ListGamesResult>(
        "listGames",
        routes: [.get("/users/{id}/games") { request throws(WireError) in
            ListGamesArguments(userId: try player(request.parameters[0]), before: request.query["before"], limit: try request.limit(quoted: true))
        }])
    public static let rematchRoom = OperationDeclaration<RoomCodeArguments, RematchResult>("rematchRoom")

    /// A player id in a path: not a user id at all is no player of the room.
    private static func player(_ text: String) throws(WireError) -> UserID {
        guard let user = UserID(text) else { throw WireError(.playerNotFound, "Player \(text.prefix(40)) is not in this room.") }
        return user
    }

    private struct PlayerNameBody: Decodable { let playerName: String }
    private struct ReadyBody: Decodable { let ready: Bool }
    private struct ScoreBody: Decodable {
        let playerId: UserID
        let round: Int
        let score: Int
    }
}

extension EventName {
    /// A room's public view (`GameRoom`).
    public static let room = EventName(rawValue: "room")
}

extension RummyAction {
    /// The rummy moves: one action of the room's rules each.
    public static let moves: [GameMove<RummyAction>] = [
        Operation.setReady.move(code: { $0.roomCode }) { .setReady(playerId: $0.playerId, ready: $0.ready) },
        Operation.startRoomGame.move(code: { $0.roomCode }) { _ in .startGame },
        Operation.submitScore.move(code: { $0.roomCode }) { .submitScore(playerId: $0.playerId, round: $0.round, score: $0.score) },
        Operation.nextRound.move(code: { $0.roomCode }) { _ in .nextRound },
    ]
}

extension WireVocabulary {
    public static let rummy = WireVocabulary(
        "rummy",
        operations: [
            Operation.createRoom.erased, Operation.joinRoom.erased,
        ] + RummyAction.moves.map(\.operation) + [
            Operation.leaveRoom.erased, Operation.getRoom.erased, Operation.observeRoom.erased, Operation.listGames.erased,
            Operation.rematchRoom.erased,
        ],
        errorCodes: [.roomNotFound, .roomFull, .notModerator, .invalidRoomCode, .networkError])
}
