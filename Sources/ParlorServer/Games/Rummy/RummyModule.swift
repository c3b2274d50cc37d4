import ParlorRules
import ParlorWire

/// The rummy room operations (seed `rummy-room-api.md`) and their REST routes, on the kernel. Each
/// acts as the signed-in caller (never a client-supplied claim of who is calling).
struct RummyModule: GameModule {
    func register(in kernel: Kernel) throws -> GameRegistration {
        let operations = RummyOperations(host: GameHost(RummyGame(maxGames: kernel.configuration.limits.maxRooms), kernel: kernel))
        return GameRegistration(game: operations.host, operations: operations.entries, routes: operations.routes)
    }
}

struct RummyOperations: Sendable {
    let host: GameHost<RummyGame>

    var createRoom: OperationHandler<CreateRoomArguments> {
        OperationHandler(.createRoom) { [host] args, context throws(WireError) in
            let user = try context.signedIn()
            let created = try await host.create { _, code, now throws(RoomError) in
                try RummyRoom.create(
                    code: code, pointLimit: args.pointLimit, pointValue: args.pointValue, playerCount: args.playerCount,
                    creator: user, playerName: args.playerName, at: now)
            }
            return .reply(EncodedJSON.seat(created.publicView, as: "room", caller: user))
        }
    }

    var joinRoom: OperationHandler<JoinRoomArguments> {
        OperationHandler(.joinRoom) { [host] args, context throws(WireError) in
            let user = try context.signedIn()
            switch try await host.game(code: args.code).perform(.join(playerName: args.playerName), by: user) {
            case .game(_, let view, _): return .reply(EncodedJSON.seat(view, as: "room", caller: user))
            case .deleted: throw WireError(RoomError.roomNotFound(code: args.code))
            }
        }
    }

    var setReady: OperationHandler<SetReadyArguments> {
        host.change(.setReady) { .setReady(playerId: $0.playerId, ready: $0.ready) } code: { $0.roomCode }
    }

    var startGame: OperationHandler<RoomCodeArguments> {
        host.change(.startGame) { _ in .startGame } code: { $0.roomCode }
    }

    var submitScore: OperationHandler<SubmitScoreArguments> {
        host.change(.submitScore) { .submitScore(playerId: $0.playerId, round: $0.round, score: $0.score) } code: { $0.roomCode }
    }

    var nextRound: OperationHandler<RoomCodeArguments> {
        host.change(.nextRound) { _ in .nextRound } code: { $0.roomCode }
    }

    /// The moderator of a finished room starts a rematch: `{code}`, the new room's, with the same seats.
    var rematchRoom: OperationHandler<RoomCodeArguments> {
        host.rematchOperation(.rematchRoom) { host, args throws(WireError) in try await host.game(code: args.roomCode) }
    }

    /// Answers null; leaving may delete the room.
    var leaveRoom: OperationHandler<LeaveRoomArguments> {
        OperationHandler(.leaveRoom) { [host] args, context throws(WireError) in
            _ = try await host.game(code: args.roomCode).perform(.leave(playerId: args.playerId), by: try context.signedIn())
            return .reply(.null)
        }
    }

    /// Anyone may read a room (the seed: "anyone can read room, for QR join").
    var getRoom: OperationHandler<CodeArguments> {
        OperationHandler(.getRoom, access: .anyone) { [host] args, _ throws(WireError) in
            .reply(try await host.game(code: args.code).current().1)
        }
    }

    /// Anyone may watch a room, signed in or not (spectators).
    var observeRoom: OperationHandler<CodeArguments> {
        OperationHandler(.observeRoom, access: .anyone) { [host] args, context throws(WireError) in
            .subscribe(try await host.game(code: args.code).subscribe(user: context.user)) { topic throws(WireError) in
                try EncodedJSON.encoding(Subscribed(subscription: topic))
            }
        }
    }

    /// A user's finished games, newest first. Only your own (`GameHost.historyPage`).
    var listGames: OperationHandler<ListGamesArguments> {
        OperationHandler(.listGames) { [host] args, context throws(WireError) in
            let page = try await host.historyPage(args, caller: try context.signedIn(), plural: "games")
            let games = page.games.compactMap(GameHistoryEntry.init)
            return .reply(try EncodedJSON.encoding(ListGamesResult(games: games, nextBefore: page.isFull ? games.last?.finishedAt : nil)))
        }
    }

    var entries: [OperationEntry] {
        [
            createRoom.entry(), joinRoom.entry(), setReady.entry(),
            // Shared with word lobbies (`lobbyId`); callable too, as the seed's clients call it.
            startGame.entry(claim: (key: "roomCode", label: "rummy"), callable: true),
            submitScore.entry(), nextRound.entry(), leaveRoom.entry(), getRoom.entry(), observeRoom.entry(),
            listGames.entry(), rematchRoom.entry(),
        ]
    }

    /// The seed's REST routes.
    var routes: [HTTPRoute] {
        let (createRoom, joinRoom, setReady, startGame) = (createRoom, joinRoom, setReady, startGame)
        let (submitScore, nextRound, leaveRoom, getRoom, listGames) = (submitScore, nextRound, leaveRoom, getRoom, listGames)
        return [
            HTTPRoute(.GET, "/rooms/{code}", access: .anyone) { request throws(WireError) in
                getRoom.call(CodeArguments(code: request.parameters[0]))
            },
            HTTPRoute(.POST, "/rooms", status: .created) { request throws(WireError) in
                createRoom.call(try request.body(CreateRoomArguments.self))
            },
            HTTPRoute(.POST, "/rooms/{code}/players") { request throws(WireError) in
                let body = try request.body(PlayerNameBody.self)
                return joinRoom.call(JoinRoomArguments(code: request.parameters[0], playerName: body.playerName))
            },
            HTTPRoute(.PUT, "/rooms/{code}/players/{id}/ready") { request throws(WireError) in
                let body = try request.body(ReadyBody.self)
                return setReady.call(SetReadyArguments(
                    roomCode: request.parameters[0], playerId: try Self.player(request.parameters[1]), ready: body.ready))
            },
            HTTPRoute(.POST, "/rooms/{code}/start") { request throws(WireError) in
                startGame.call(RoomCodeArguments(roomCode: request.parameters[0]))
            },
            HTTPRoute(.DELETE, "/rooms/{code}/players/{id}", status: .noContent) { request throws(WireError) in
                leaveRoom.call(LeaveRoomArguments(roomCode: request.parameters[0], playerId: try Self.player(request.parameters[1])))
            },
            HTTPRoute(.POST, "/rooms/{code}/scores") { request throws(WireError) in
                let body = try request.body(ScoreBody.self)
                return submitScore.call(SubmitScoreArguments(
                    roomCode: request.parameters[0], playerId: body.playerId, round: body.round, score: body.score))
            },
            HTTPRoute(.POST, "/rooms/{code}/next-round") { request throws(WireError) in
                nextRound.call(RoomCodeArguments(roomCode: request.parameters[0]))
            },
            HTTPRoute(.GET, "/users/{id}/games") { request throws(WireError) in
                let limit = try request.query["limit"].map { text throws(WireError) in
                    guard let number = Int(text) else { throw ListGamesArguments.limitError(got: "\"\(text)\"") }
                    return number
                }
                return listGames.call(ListGamesArguments(
                    userId: try Self.player(request.parameters[0]), before: request.query["before"], limit: limit))
            },
        ]
    }

    // MARK: Helpers

    /// A player id in a path: not a user id at all is no player of the room.
    private static func player(_ text: String) throws(WireError) -> UserID {
        guard let user = UserID(text) else {
            throw WireError(.playerNotFound, "Player \(text.prefix(40)) is not in this room.")
        }
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
