import Dispatch
import ParlorClient
import ParlorRules
import ParlorWire

/// A long-running session in one room: create, join or watch it, then show every change as it happens
/// and carry out what the person (keys) or the script (lines on stdin) asks, until they quit.
struct RoomSession {
    enum Entry: Sendable {
        case create(pointLimit: Int, pointValue: Int, playerCount: Int, playerName: String)
        case join(code: String, playerName: String)
        case watch(code: String)
    }

    typealias Mode = SessionLogic.Mode

    let client: ParlorClient
    let entry: Entry
    let mode: Mode

    /// Runs the session; returns the process exit status.
    func run() async -> Int32 {
        await client.whileConnected { group in await runSession(group: &group) }
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
                presenter.present([.seat(seat)], state: state)
            case .join(let joinCode, let playerName):
                let seat = try await client.joinRoom(code: joinCode, playerName: playerName)
                code = seat.room.id
                state = RoomScreenState(server: client.server.url, code: code, room: seat.room, me: seat.currentUserId)
                presenter.present([.seat(seat)], state: state)
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

        let signalSources = InputSources.feed(sink, interactive: mode == .interactive)
        defer { signalSources.forEach { $0.cancel() } }

        var logic = SessionLogic(mode: mode, screen: state)
        presenter.begin(logic.screen)
        var ending = SessionLogic.Ending.quit
        for await event in events {
            let step = logic.handle(event)
            presenter.present(step.outputs, state: logic.screen)
            if let action = step.action {
                let client = client
                group.addTask {
                    let result = await Self.perform(action, in: code, client: client)
                    sink.yield(.actionFinished(action, result))
                }
            }
            if let end = step.ending {
                ending = end
                break
            }
        }
        presenter.end(farewell: mode == .interactive ? logic.farewell(for: ending, server: client.server.url) : nil)
        sink.finish()
        return ending.exitStatus
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
}
