import ParlorRules
import ParlorWire

/// The rummy room operations (seed `rummy-room-api.md`) and their REST routes, on the kernel. Each
/// acts as the signed-in caller (never a client-supplied claim of who is calling).
struct RummyModule: GameModule {
    func register(in kernel: Kernel) throws -> GameRegistration {
        let operations = RummyOperations(host: GameHost(RummyGame(maxGames: kernel.configuration.limits.maxRooms), kernel: kernel))
        let moves = operations.host.moves(RummyAction.moves)
        return GameRegistration(
            game: operations.host, operations: operations.entries + moves.entries, routes: operations.routes + moves.routes)
    }
}

/// What rummy answers besides its moves (`RummyAction.moves`): seats, reading and watching, history,
/// rematches.
struct RummyOperations: Sendable {
    let host: GameHost<RummyGame>

    var createRoom: OperationHandler<CreateRoomArguments> {
        OperationHandler(Operation.createRoom) { [host] args, context throws(WireError) in
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
        OperationHandler(Operation.joinRoom) { [host] args, context throws(WireError) in
            let user = try context.signedIn()
            switch try await host.game(code: args.code).perform(.join(playerName: args.playerName), by: user) {
            case .game(_, let view, _): return .reply(EncodedJSON.seat(view, as: "room", caller: user))
            case .deleted: throw WireError(RoomError.roomNotFound(code: args.code))
            }
        }
    }

    /// The moderator of a finished room starts a rematch: `{code}`, the new room's, with the same seats.
    var rematchRoom: OperationHandler<RoomCodeArguments> {
        host.rematchOperation(Operation.rematchRoom) { host, args throws(WireError) in try await host.game(code: args.roomCode) }
    }

    /// Answers null; leaving may delete the room.
    var leaveRoom: OperationHandler<LeaveRoomArguments> {
        OperationHandler(Operation.leaveRoom) { [host] args, context throws(WireError) in
            let user = try context.signedIn()
            let room = try await host.game(code: args.roomCode)
            // Another player's id is the moderator removing them (`RummyRoom+Kick`).
            _ = try await args.playerId == user ? room.perform(.leave(playerId: user), by: user) : host.kick(args.playerId, from: room, by: user)
            return .reply(.null)
        }
    }

    var getRoom: OperationHandler<CodeArguments> { host.reading(Operation.getRoom) { $0.code } }

    var observeRoom: OperationHandler<CodeArguments> { host.watching(Operation.observeRoom) { $0.code } }

    /// A user's finished games, newest first. Only your own (`GameHost.historyPage`).
    var listGames: OperationHandler<ListGamesArguments> {
        OperationHandler(Operation.listGames) { [host] args, context throws(WireError) in
            let page = try await host.historyPage(args, caller: try context.signedIn(), plural: "games")
            let games = page.games.compactMap(GameHistoryEntry.init)
            return .reply(try EncodedJSON.encoding(ListGamesResult(games: games, nextBefore: page.isFull ? games.last?.finishedAt : nil)))
        }
    }

    var entries: [OperationEntry] {
        [createRoom.entry(), joinRoom.entry(), leaveRoom.entry(), getRoom.entry(), observeRoom.entry(), listGames.entry(), rematchRoom.entry()]
    }

    /// The seed's REST routes, as the declarations give them.
    var routes: [HTTPRoute] {
        createRoom.routes + joinRoom.routes + leaveRoom.routes + getRoom.routes + listGames.routes
    }
}
