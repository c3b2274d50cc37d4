import Dispatch
import ParlorClient
import ParlorRules
import ParlorWire

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A long-running session in one room: create, join or watch it, then show every change as it happens
/// and carry out what the person (keys) or the script (lines on stdin) asks, until they quit.
struct RoomSession {
    enum Entry: Sendable {
        case create(pointLimit: Int, pointValue: Int, playerCount: Int, playerName: String)
        case join(code: String, playerName: String)
        case watch(code: String)
    }

    enum Mode {
        /// Full screen, keys.
        case interactive
        /// JSON lines out, commands in.
        case scripted
    }

    let client: ParlorClient
    let entry: Entry
    let mode: Mode

    /// Runs the session; returns the process exit status.
    func run() async -> Int32 {
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                do throws(ParlorClientError) {
                    try await client.run()
                } catch {
                    // Out of reconnect attempts: requests fail and say so.
                }
            }
            let status = await runSession(group: &group)
            await client.close()
            group.cancelAll()
            return status
        }
    }

    private func runSession(group: inout TaskGroup<Void>) async -> Int32 {
        let presenter: any SessionPresenter = mode == .interactive ? ScreenPresenter() : JSONLinesPresenter()
        let (events, sink) = AsyncStream.makeStream(of: SessionEvent.self, bufferingPolicy: .bufferingNewest(1024))
        let states = client.connectionStates()
        group.addTask {
            for await state in states { sink.yield(.connection(state)) }
        }

        // Take the seat (or not, for a spectator) before anything is drawn, so a refusal reads as a
        // plain sentence on stderr.
        let code: String
        var state: RoomScreenState
        do throws(ParlorClientError) {
            switch entry {
            case .create(let pointLimit, let pointValue, let playerCount, let playerName):
                let seat = try await client.createRoom(
                    pointLimit: pointLimit, pointValue: pointValue, playerCount: playerCount, playerName: playerName)
                code = seat.room.id
                state = RoomScreenState(server: client.server.url, code: code, room: seat.room, me: seat.currentUserId)
                presenter.present(.seat(seat), state: state)
            case .join(let joinCode, let playerName):
                let seat = try await client.joinRoom(code: joinCode, playerName: playerName)
                code = seat.room.id
                state = RoomScreenState(server: client.server.url, code: code, room: seat.room, me: seat.currentUserId)
                presenter.present(.seat(seat), state: state)
            case .watch(let watchCode):
                code = watchCode
                state = RoomScreenState(server: client.server.url, code: code)
            }
            let rooms = try await client.observeRoom(code: code)
            group.addTask {
                for await room in rooms { sink.yield(.room(room)) }
                sink.yield(.roomStreamEnded)
            }
        } catch {
            StandardStreams.printError(error.description)
            return 1
        }
        state.me = state.me ?? client.userId

        switch mode {
        case .interactive:
            InputSources.readKeys { keys in
                guard let keys else {
                    sink.yield(.inputEnded)
                    return
                }
                for key in keys { sink.yield(.key(key)) }
            }
        case .scripted:
            InputSources.readLines { line in
                sink.yield(line.map(SessionEvent.line) ?? .inputEnded)
            }
        }
        let signalSources = InputSources.watchSignals([SIGINT, SIGTERM, SIGHUP, SIGWINCH]) { number in
            sink.yield(number == SIGWINCH ? .resize : .signal(number))
        }
        defer { signalSources.forEach { $0.cancel() } }

        presenter.begin(state)
        var farewell: String?
        var status: Int32 = 0
        loop: for await event in events {
            var output: SessionOutput?
            var action: RoomAction?
            switch event {
            case .room(let room):
                guard let room else {
                    state.roomDeleted = true
                    output = .room(nil)
                    farewell = "Room \(code) was deleted."
                    presenter.present(output, state: state)
                    break loop
                }
                if let current = state.room, room.version <= current.version { continue }
                state.room = room
                output = .room(room)
            case .roomStreamEnded:
                if !state.roomDeleted {
                    farewell = "The connection to \(client.server) is closed."
                    status = 1
                }
                break loop
            case .connection(let connection):
                guard connection != state.connection else { continue }
                state.connection = connection
                if case .connected(let userId) = connection { state.me = userId }
                output = .status(connection)
            case .key(let key):
                state.message = nil
                action = state.handle(key)
            case .line(let line):
                switch ScriptCommand.parse(line, in: state) {
                case nil:
                    continue
                case .success(.showRoom)?:
                    // Again, even if unchanged: the script asked.
                    if let room = state.room { StandardStreams.printLine(SessionOutput.room(room).jsonLine) }
                    continue
                case .success(.action(let requested))?:
                    action = requested
                case .failure(let error)?:
                    output = .error(action: nil, code: nil, message: error.message)
                }
            case .inputEnded:
                // Keys: the terminal went away. Lines: the script has said all it will; keep showing
                // the room until it quits us with a signal.
                if mode == .interactive { break loop }
                continue
            case .resize:
                break
            case .signal:
                break loop
            case .actionFinished(let finished, let result):
                switch result {
                case .success(let room):
                    if let room, room.version > (state.room?.version ?? 0) {
                        state.room = room
                        presenter.present(.room(room), state: state)
                    }
                    output = .done(finished)
                    if finished == .leave {
                        presenter.present(.left(code: code), state: state)
                        farewell = "You left room \(code)."
                        break loop
                    }
                    if mode == .interactive { state.message = RoomScreenState.Message(Self.confirmation(finished, state: state)) }
                case .failure(let error):
                    state.message = RoomScreenState.Message(error.description, isError: true)
                    output = .error(error, action: finished.name)
                }
            }
            if let action {
                if action == .quit { break loop }
                let client = client
                group.addTask {
                    let result = await Self.perform(action, in: code, client: client)
                    sink.yield(.actionFinished(action, result))
                }
            }
            presenter.present(output, state: state)
        }
        presenter.end(farewell: mode == .interactive ? farewell : nil)
        sink.finish()
        return status
    }

    /// Carries out an action; the room it returns, if any.
    static func perform(_ action: RoomAction, in code: String, client: ParlorClient) async -> Result<GameRoom?, ParlorClientError> {
        do throws(ParlorClientError) {
            switch action {
            case .setReady(let ready): return .success(try await client.setReady(roomCode: code, ready: ready))
            case .start: return .success(try await client.startGame(roomCode: code))
            case .submitScore(let player, let round, let score):
                return .success(try await client.submitScore(roomCode: code, playerId: player, round: round, score: score))
            case .nextRound: return .success(try await client.nextRound(roomCode: code))
            case .leave:
                try await client.leaveRoom(roomCode: code)
                return .success(nil)
            case .quit: return .success(nil)
            }
        } catch {
            return .failure(error)
        }
    }

    static func confirmation(_ action: RoomAction, state: RoomScreenState) -> String {
        switch action {
        case .setReady(true): "You are ready."
        case .setReady(false): "You are not ready."
        case .start: "The game has started."
        case .submitScore(let player, let round, let score):
            "\(state.room?.players.first { $0.id == player }?.name ?? "The player") scores \(score) in round \(round)."
        case .nextRound: state.room?.isFinished == true ? "The game is over." : "Round \(state.room?.currentRound ?? 0) has begun."
        case .leave: "You left the room."
        case .quit: ""
        }
    }
}
