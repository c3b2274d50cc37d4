import Foundation
import ParlorClient
import ParlorRules
import ParlorWire

/// A long-running session in one word lobby: create or join it, then show every change as it happens
/// (and, on a terminal, the countdown every second) and carry out what the person (typing) or the
/// script (lines on stdin) asks, until they quit, leave, or the lobby is deleted.
struct LobbySession {
    enum Entry: Sendable {
        case create(LobbyUserArguments)
        case join(code: String, LobbyUserArguments)
    }

    typealias Mode = LobbySessionLogic.Mode

    let client: ParlorClient
    let entry: Entry
    let mode: Mode
    /// `--server` and `--profile` as given, for the farewell's rejoin command.
    var clientArguments: [String] = []

    /// Runs the session; returns the process exit status.
    func run() async -> Int32 {
        await client.whileConnected { group in await runSession(group: &group) }
    }

    private func runSession(group: inout TaskGroup<Void>) async -> Int32 {
        let presenter: any LobbyPresenter = mode == .interactive ? LobbyScreenPresenter() : LobbyJSONLinesPresenter()
        let (events, sink) = AsyncStream.makeStream(of: LobbySessionEvent.self, bufferingPolicy: .bufferingNewest(1024))
        let states = client.connectionStates()
        group.addTask {
            for await state in states { sink.yield(.connection(state)) }
        }

        // Take the seat before anything is drawn, so a refusal reads as a plain sentence on stderr.
        var code = ""
        let lobbyId: String
        do throws(ParlorClientError) {
            switch entry {
            case .create(let user):
                let created = try await client.createLobby(user: user)
                (code, lobbyId) = (created.lobbyCode, created.lobbyId)
            case .join(let joinCode, let user):
                code = joinCode
                lobbyId = try await client.joinLobby(code: joinCode, user: user).lobbyId
            }
            let updates = try await client.observeLobby(lobbyId: lobbyId)
            group.addTask {
                for await update in updates { sink.yield(.update(update, receivedAt: Self.deviceNow())) }
                sink.yield(.streamEnded)
            }
        } catch {
            StandardStreams.printError(LobbyErrorSentence.sentence(error, action: nil, code: code))
            return 1
        }
        let state = LobbyScreenState(
            server: client.server.url, code: code, lobbyId: lobbyId, me: client.userId, now: Self.deviceNow())
        presenter.present([.joined(code: code, lobbyId: lobbyId, userId: client.userId)], state: state)

        if mode == .interactive {
            // The countdown on screen moves every second.
            group.addTask {
                while !Task.isCancelled {
                    try? await Task.sleep(for: .seconds(1))
                    sink.yield(.tick(Self.deviceNow()))
                }
            }
        }
        let signalSources = InputSources.feed(sink, interactive: mode == .interactive)
        defer { signalSources.forEach { $0.cancel() } }

        var logic = LobbySessionLogic(mode: mode, screen: state, clientArguments: clientArguments)
        presenter.begin(logic.screen)
        var ending = LobbySessionLogic.Ending.quit
        for await event in events {
            let step = logic.handle(event)
            presenter.present(step.outputs, state: logic.screen)
            if let action = step.action {
                let client = client
                group.addTask {
                    let result = await Self.perform(action, in: lobbyId, client: client)
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

    /// Carries out an action; a submitted word's verdict.
    static func perform(_ action: LobbyAction, in lobbyId: String, client: ParlorClient) async -> Result<WordVerdictResult?, ParlorClientError> {
        do throws(ParlorClientError) {
            switch action {
            case .submitWord(let word): return .success(try await client.submitWord(lobbyId: lobbyId, word: word))
            case .start(let gameId):
                try await client.startLobbyGame(lobbyId: lobbyId, gameId: gameId)
                return .success(nil)
            case .leave:
                try await client.leaveLobby(lobbyId: lobbyId)
                return .success(nil)
            case .quit: return .success(nil)
            }
        } catch {
            return .failure(error)
        }
    }

    /// This device's wall clock, to set against the server's (`serverTime`).
    static func deviceNow() -> Instant {
        Instant(millisecondsSinceEpoch: Int64((Date().timeIntervalSince1970 * 1000).rounded()))
    }
}
