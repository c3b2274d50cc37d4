import Dispatch
import Synchronization

/// Where a process's one reader of stdin (and its signal handlers) deliver: the session running now.
/// A rematch starts another session on the same terminal; a second reader would race the first for
/// every key. Between sessions what is read waits for the next one, so no key or script line is lost.
final class InputRoute<Game: TerminalGame>: Sendable {
    private struct State {
        var session: AsyncStream<SessionEvent<Game>>.Continuation?
        var waiting: [SessionEvent<Game>] = []
    }

    private let state = Mutex(State())

    /// Starts reading keys (or lines) and watching signals, for this session and every one after it;
    /// keep the returned sources alive for as long as the handling should last.
    func start(interactive: Bool) -> [any DispatchSourceSignal] {
        let (events, relay) = AsyncStream.makeStream(of: SessionEvent<Game>.self)
        Task { [self] in
            for await event in events {
                state.withLock { state in
                    if let session = state.session { session.yield(event) } else { state.waiting.append(event) }
                }
            }
        }
        return InputSources.feed(relay, interactive: interactive)
    }

    /// What was read while no session ran, then everything from now on, goes to `session`.
    func route(to session: AsyncStream<SessionEvent<Game>>.Continuation) {
        state.withLock { state in
            for event in state.waiting { session.yield(event) }
            state.waiting = []
            state.session = session
        }
    }

    /// The session ended: hold what is read for the next one.
    func detach() {
        state.withLock { $0.session = nil }
    }
}
