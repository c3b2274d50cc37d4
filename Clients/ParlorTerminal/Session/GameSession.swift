import Dispatch
import ParlorClient

/// A long-running session in one game's room or lobby: enter it, then show every change as it happens
/// (and a countdown every second, if the game has one) and carry out what the person (keys) or the
/// script (lines on stdin) asks, until they quit, leave, or the place is deleted.
struct GameSession<Game: TerminalGame> {
    let client: ParlorClient
    let entry: Game.Entry
    let mode: SessionMode
    /// `--server` and `--profile` as given, for a farewell's command that comes back.
    var clientArguments: [String] = []

    /// Runs the session, and on into each rematch its game announces; returns the process exit status.
    func run() async -> Int32 {
        let input = InputRoute<Game>()
        var signalSources: [any DispatchSourceSignal]?
        defer { signalSources?.forEach { $0.cancel() } }
        return await client.whileConnected { group in
            var entry = self.entry
            while true {
                let (ending, next) = await runSession(entry, input: input, signalSources: &signalSources, group: &group)
                guard let next else { return ending.exitStatus }
                entry = next
            }
        }
    }

    /// One place's session, from entering it to its ending.
    private func runSession(
        _ entry: Game.Entry, input: InputRoute<Game>, signalSources: inout [any DispatchSourceSignal]?, group: inout TaskGroup<Void>
    ) async -> (ending: SessionEnding, next: Game.Entry?) {
        let presenter: any SessionPresenter<Game> = mode == .interactive ? ScreenPresenter() : JSONLinesPresenter()
        let (events, sink) = AsyncStream.makeStream(of: SessionEvent<Game>.self, bufferingPolicy: .bufferingNewest(1024))
        let states = client.connectionStates()
        group.addTask {
            for await state in states { sink.yield(.connection(state)) }
        }
        let presences = client.presenceUpdates()
        group.addTask {
            for await presence in presences {
                if let presence { sink.yield(.presence(presence)) }
            }
        }
        let accesses = client.accessUpdates()
        group.addTask {
            for await access in accesses {
                if let access { sink.yield(.access(access)) }
            }
        }

        // Take the seat (or not, for a spectator) before anything is drawn, so a refusal reads as a
        // plain sentence on stderr. The seat is reported as soon as it is taken.
        var screen: Game.Screen
        // Said at once, so a server that is slow to answer is not a blank terminal; erased once in.
        if mode == .interactive { StandardStreams.write("connecting to \(client.server.url) …") }
        do throws(ParlorClientError) {
            let entered: (screen: Game.Screen, outputs: [Game.Output])
            do throws(ParlorClientError) {
                entered = try await Game.enter(entry, client: client)
                eraseConnecting()
            } catch {
                eraseConnecting()
                throw error
            }
            screen = entered.screen
            presenter.present(entered.outputs, screen: screen)
            let updates = try await Game.follow(screen, client: client)
            group.addTask {
                for await update in updates { sink.yield(.update(update, receivedAt: DeviceClock.now())) }
                sink.yield(.streamEnded)
            }
        } catch {
            StandardStreams.printError(Game.refusal(error, entering: entry))
            return (.connectionClosed, nil)
        }
        // A spectator's first request may be the follow: only then is it known who this is.
        screen.me = screen.me ?? client.userId

        // Every screen ticks: a countdown redraws, and the message line expires.
        if mode == .interactive {
            group.addTask {
                while !Task.isCancelled {
                    try? await Task.sleep(for: .seconds(1))
                    sink.yield(.tick(DeviceClock.now()))
                }
            }
        }
        // Input starts with the first session (as late as it can, so nothing typed before is lost) and
        // goes on into every rematch's.
        input.route(to: sink)
        if signalSources == nil { signalSources = input.start(interactive: mode == .interactive) }
        defer { input.detach() }

        var logic = GameSessionLogic<Game>(mode: mode, screen: screen, clientArguments: clientArguments)
        presenter.begin(logic.screen)
        var ending = SessionEnding.quit
        for await event in events {
            let step = logic.handle(event)
            presenter.present(step.outputs, screen: logic.screen)
            for action in (step.action.map { [$0] } ?? []) + step.resent {
                let (client, screen) = (client, logic.screen)
                group.addTask {
                    let result: Result<Game.ActionResult, ParlorClientError>
                    do throws(ParlorClientError) {
                        result = .success(try await Game.perform(action, in: screen, client: client))
                    } catch {
                        result = .failure(error)
                    }
                    sink.yield(.actionFinished(action, result))
                }
            }
            if let end = step.ending {
                ending = end
                break
            }
        }
        presenter.end(farewell: mode == .interactive ? logic.farewell(for: ending, server: client.server.url, closedReason: client.closedReason) : nil)
        sink.finish()
        guard case .rematch(let code) = ending else { return (ending, nil) }
        return (ending, Game.rematchEntry(code: code, from: logic.screen))
    }

    private func eraseConnecting() {
        if mode == .interactive { StandardStreams.write("\r" + ANSI.clearToEndOfLine) }
    }
}
