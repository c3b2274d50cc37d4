import Foundation
import NIOConcurrencyHelpers
import NIOCore
import ParlorRules
import ParlorWire
import WebSocketCore

/// The state of a scripted Parlor server for client tests: rummy rooms run by the real rules, anonymous
/// users with tokens, room subscriptions. It outlives the servers in front of it, so a "restart" keeps
/// rooms and tokens as a persisting server would.
final class FakeBackend: Sendable {
    struct Subscriber: Sendable {
        let connection: Int
        let socket: WebSocket
    }

    struct State {
        var rooms: [String: RummyRoom] = [:]
        var users: [String: UserID] = [:]
        var nextUser = 0
        var nextRoom = 0
        var topics: [String: Int] = [:]
        var nextTopic = 100
        var subscribers: [String: [Int: Subscriber]] = [:]
        var connections: [Int: WebSocket] = [:]
        var nextConnection = 0
        /// Every hello's token (nil for none), in order.
        var helloTokens: [String?] = []
        /// Operations received, in order.
        var received: [String] = []
        /// Operations to leave unanswered.
        var silent: Set<OperationName> = []
    }

    let state = NIOLockedValueBox(State())

    var helloTokens: [String?] { state.withLockedValue { $0.helloTokens } }
    var received: [String] { state.withLockedValue { $0.received } }
    var connectionCount: Int { state.withLockedValue { $0.connections.count } }

    func setSilent(_ operations: [OperationName]) {
        state.withLockedValue { $0.silent = Set(operations) }
    }

    /// Closes every open connection as a server going away (1001) or restarting (1012) would.
    func dropConnections(code: WebSocketCloseCode = .goingAway) async {
        let sockets = state.withLockedValue { Array($0.connections.values) }
        for socket in sockets { await socket.close(code: code, reason: "test") }
    }

    /// Changes a room behind the clients' backs (as another user would), publishing the change.
    func apply(_ action: RummyAction, by user: UserID, in code: String) async throws {
        let room = try state.withLockedValue { state -> RummyRoom in
            guard var room = state.rooms[code] else { throw RoomError.roomNotFound(code: code) }
            _ = try room.apply(action, by: user, at: Instant(millisecondsSinceEpoch: 1_800_000_000_000))
            state.rooms[code] = room
            return room
        }
        await publish(room)
    }

    func room(_ code: String) -> RummyRoom? { state.withLockedValue { $0.rooms[code] } }

    // MARK: Serving one connection

    func serve(_ socket: WebSocket) async {
        let connection = state.withLockedValue { state -> Int in
            state.nextConnection += 1
            state.connections[state.nextConnection] = socket
            return state.nextConnection
        }
        defer {
            state.withLockedValue { state in
                state.connections[connection] = nil
                for code in state.subscribers.keys { state.subscribers[code]?[connection] = nil }
            }
        }
        var user: UserID?
        do {
            for try await message in socket.inbound {
                guard case .success(let request) = Request.decode(message.data.readableBytesView) else { continue }
                let silent = state.withLockedValue { state -> Bool in
                    state.received.append(request.operation.name.rawValue)
                    return state.silent.contains(request.operation.name)
                }
                if silent { continue }
                await handle(request, connection: connection, socket: socket, user: &user)
            }
        } catch {}
    }

    private func handle(_ request: Request, connection: Int, socket: WebSocket, user: inout UserID?) async {
        let now = Instant(millisecondsSinceEpoch: 1_800_000_000_000)
        do {
            switch request.operation.name {
            case Operation.hello.name:
                let args = try arguments(of: request, as: HelloArguments.self)
                let (known, token) = state.withLockedValue { state -> (UserID, String) in
                    state.helloTokens.append(args.token)
                    if let token = args.token, let known = state.users[token] { return (known, token) }
                    state.nextUser += 1
                    let id = UserID(UUID(uuidString: String(format: "00000000-0000-4000-8000-%012d", state.nextUser))!)
                    let token = "token-\(state.nextUser)"
                    state.users[token] = id
                    return (id, token)
                }
                user = known
                await send(socket, try Reply.result(id: request.id, HelloResult(userId: known, token: token, resumed: args.token == token)))
            case Operation.createRoom.name:
                let args = try arguments(of: request, as: CreateRoomArguments.self)
                let caller = try signedIn(user)
                let room = try state.withLockedValue { state -> RummyRoom in
                        state.nextRoom += 1
                        let code = RoomCode(uncheckedRawValue: String(format: "ROOM%02d", state.nextRoom))
                        let room = try RummyRoom.create(
                            code: code, pointLimit: args.pointLimit, pointValue: args.pointValue, playerCount: args.playerCount,
                            creator: caller, playerName: args.playerName, at: now)
                        state.rooms[code.rawValue] = room
                        return room
                }
                await send(socket, try Reply.result(id: request.id, RoomServiceResult(room: GameRoom(room), currentUserId: caller)))
            case Operation.joinRoom.name:
                let args = try arguments(of: request, as: JoinRoomArguments.self)
                let caller = try signedIn(user)
                let room = try await change(args.code, .join(playerName: args.playerName), by: caller)
                await send(socket, try Reply.result(id: request.id, RoomServiceResult(room: GameRoom(room), currentUserId: caller)))
            case Operation.setReady.name:
                let args = try arguments(of: request, as: SetReadyArguments.self)
                let room = try await change(args.roomCode, .setReady(playerId: args.playerId, ready: args.ready), by: try signedIn(user))
                await send(socket, try Reply.result(id: request.id, GameRoom(room)))
            case Operation.startRoomGame.name:
                let code = try arguments(of: request, as: RoomCodeArguments.self).roomCode
                let room = try await change(code, .startGame, by: try signedIn(user))
                await send(socket, try Reply.result(id: request.id, GameRoom(room)))
            case Operation.submitScore.name:
                let args = try arguments(of: request, as: SubmitScoreArguments.self)
                let room = try await change(
                    args.roomCode, .submitScore(playerId: args.playerId, round: args.round, score: args.score), by: try signedIn(user))
                await send(socket, try Reply.result(id: request.id, GameRoom(room)))
            case Operation.nextRound.name:
                let args = try arguments(of: request, as: RoomCodeArguments.self)
                let room = try await change(args.roomCode, .nextRound, by: try signedIn(user))
                await send(socket, try Reply.result(id: request.id, GameRoom(room)))
            case Operation.leaveRoom.name:
                let args = try arguments(of: request, as: LeaveRoomArguments.self)
                _ = try await change(args.roomCode, .leave(playerId: args.playerId), by: try signedIn(user))
                await send(socket, Reply.success(id: request.id))
            case Operation.getRoom.name:
                let args = try arguments(of: request, as: CodeArguments.self)
                guard let room = self.room(args.code.uppercased()) else { throw WireError(RoomError.roomNotFound(code: args.code)) }
                await send(socket, try Reply.result(id: request.id, GameRoom(room)))
            case Operation.observeRoom.name:
                let args = try arguments(of: request, as: CodeArguments.self)
                let code = args.code.uppercased()
                let found = state.withLockedValue { state -> (Int, RummyRoom)? in
                    guard let room = state.rooms[code] else { return nil }
                    let topic = state.topics[code] ?? state.nextTopic
                    if state.topics[code] == nil {
                        state.topics[code] = topic
                        state.nextTopic += 1
                    }
                    state.subscribers[code, default: [:]][connection] = Subscriber(connection: connection, socket: socket)
                    return (topic, room)
                }
                guard let (topic, room) = found else { throw WireError(RoomError.roomNotFound(code: args.code)) }
                await send(socket, try Reply.result(id: request.id, Subscribed(subscription: topic)))
                await send(socket, EventMessage.frame(subscription: topic, event: .room, data: try? EncodedJSON(GameRoom(room))))
            case Operation.unsubscribe.name:
                let args = try arguments(of: request, as: UnsubscribeArguments.self)
                let found = state.withLockedValue { state -> Bool in
                    guard let code = state.topics.first(where: { $0.value == args.subscription })?.key,
                          state.subscribers[code]?[connection] != nil else { return false }
                    state.subscribers[code]?[connection] = nil
                    return true
                }
                guard found else { throw WireError(.subscriptionNotFound, "There is no subscription \(args.subscription).") }
                await send(socket, EventMessage.end(subscription: args.subscription))
                await send(socket, Reply.success(id: request.id))
            default:
                throw unavailable(request)
            }
        } catch let error as WireError {
            await send(socket, Reply.error(id: request.id, error))
        } catch let error as RoomError {
            await send(socket, Reply.error(id: request.id, WireError(error)))
        } catch {
            await send(socket, Reply.error(id: request.id, .internalError()))
        }
    }

    private func unavailable(_ request: Request) -> WireError {
        WireError(.notFound, "\(request.operation.name.rawValue) is not available on this server.")
    }

    /// The request's arguments as the type its operation name registers; another type is a bug in the wire module.
    private func arguments<Arguments: OperationArguments>(of request: Request, as type: Arguments.Type) throws -> Arguments {
        guard let arguments = request.operation.arguments(as: type) else { throw WireError.internalError() }
        return arguments
    }

    private func signedIn(_ user: UserID?) throws(WireError) -> UserID {
        guard let user else { throw WireError(.unauthenticated, "Sign in first: send hello (with your token to resume).") }
        return user
    }

    private func change(_ rawCode: String, _ action: RummyAction, by caller: UserID) async throws -> RummyRoom {
        let code = rawCode.uppercased()
        let (room, deleted) = try state.withLockedValue { state -> (RummyRoom, Bool) in
                guard var room = state.rooms[code] else { throw RoomError.roomNotFound(code: rawCode) }
                let events = try room.apply(action, by: caller, at: Instant(millisecondsSinceEpoch: 1_800_000_000_000))
                let deleted = events.contains(.roomDeleted)
                state.rooms[code] = deleted ? nil : room
                return (room, deleted)
        }
        if deleted {
            await publishDeletion(code)
        } else {
            await publish(room)
        }
        return room
    }

    private func publish(_ room: RummyRoom) async {
        let code = room.id.rawValue
        let (topic, subscribers) = state.withLockedValue { ($0.topics[code], Array(($0.subscribers[code] ?? [:]).values)) }
        guard let topic, let data = try? EncodedJSON(GameRoom(room)) else { return }
        let frame = EventMessage.frame(subscription: topic, event: .room, data: data)
        for subscriber in subscribers { await send(subscriber.socket, frame) }
    }

    private func publishDeletion(_ code: String) async {
        let (topic, subscribers) = state.withLockedValue { state in
            let found = (state.topics[code], Array((state.subscribers[code] ?? [:]).values))
            state.subscribers[code] = nil
            return found
        }
        guard let topic else { return }
        for subscriber in subscribers {
            await send(subscriber.socket, EventMessage.frame(subscription: topic, event: .room, data: .null))
            await send(subscriber.socket, EventMessage.end(subscription: topic))
        }
    }

    private func send(_ socket: WebSocket, _ frame: [UInt8]) async {
        try? await socket.send(WebSocketMessage(kind: .text, data: ByteBuffer(bytes: frame)))
    }
}
