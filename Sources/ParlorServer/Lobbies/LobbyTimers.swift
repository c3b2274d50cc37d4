import ParlorRules

/// Ends word rounds at their deadlines on the server's clock, whether or not anyone is connected.
///
/// Lobby actors ask for a timer (`schedule`) when a round starts, and the server asks again for every
/// lobby restored in `GAME` at start-up (a deadline already past fires at once). `run()` is a child of the
/// server's task group: each timer is a child task of it, so a graceful shutdown cancels them all and none
/// outlives the server. A timer names its lobby by id rather than holding the actor, and ending a round is
/// idempotent (stale rounds are ignored), so a timer for a lobby that was deleted or whose round already
/// ended does nothing; at most one live timer per lobby exists, because a round ends only at its deadline.
final class LobbyTimers: Sendable {
    struct Timer: Sendable, Equatable {
        let lobbyId: String
        let round: Int
        let deadline: Instant
    }

    private let clock: any ParlorClock
    private let requests: AsyncStream<Timer>
    private let continuation: AsyncStream<Timer>.Continuation

    init(clock: any ParlorClock) {
        self.clock = clock
        (requests, continuation) = AsyncStream.makeStream(of: Timer.self)
    }

    /// Asks for `fire` (given to `run`) to be called for round `round` of `lobbyId` once the clock reaches `deadline`.
    func schedule(lobbyId: String, round: Int, at deadline: Instant) {
        continuation.yield(Timer(lobbyId: lobbyId, round: round, deadline: deadline))
    }

    /// Runs the timers until the calling task is cancelled. Call once.
    func run(fire: @escaping @Sendable (Timer) async -> Void) async {
        let clock = clock
        await withDiscardingTaskGroup { group in
            // Ends (nil) when this task is cancelled; the group then cancels every sleeping timer.
            for await timer in requests {
                group.addTask {
                    do {
                        try await clock.sleep(until: timer.deadline)
                    } catch {
                        return
                    }
                    await fire(timer)
                }
            }
            group.cancelAll()
        }
    }
}
