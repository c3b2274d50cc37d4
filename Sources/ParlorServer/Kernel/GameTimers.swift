import NIOConcurrencyHelpers
import ParlorRules

/// Runs games' scheduled actions at their time on the server's clock, whether or not anyone is
/// connected.
///
/// A game actor arms a timer for each action its rules schedule (and, at start-up, for each one
/// restored from the store: a time already past fires at once). `run()` is a child of the server's
/// task group: each armed timer is a child task of it that sleeps on the injected clock, so a
/// graceful shutdown cancels them all and none outlives the server. A timer only tells the game's actor
/// "your action `key`, due at `due`, may be due"; the actor checks its own schedule, so a timer for an
/// action that was cancelled, replaced or already applied does nothing.
final class GameTimers: Sendable {
    private struct Timer: Sendable {
        let id: Int
        let due: Instant
        let fire: @Sendable () async -> Void
    }

    private struct State {
        var nextID = 0
        /// Armed and not yet fired (or firing): id → due.
        var armed: [Int: Instant] = [:]
        var settleWaiters: [CheckedContinuation<Void, Never>] = []
    }

    private let clock: any ParlorClock
    private let requests: AsyncStream<Timer>
    private let continuation: AsyncStream<Timer>.Continuation
    private let state = NIOLockedValueBox(State())

    init(clock: any ParlorClock) {
        self.clock = clock
        (requests, continuation) = AsyncStream.makeStream(of: Timer.self)
    }

    /// Asks for `fire` to be called once the clock reaches `due`.
    func arm(at due: Instant, _ fire: @escaping @Sendable () async -> Void) {
        let id = state.withLockedValue { state in
            state.nextID += 1
            state.armed[state.nextID] = due
            return state.nextID
        }
        continuation.yield(Timer(id: id, due: due, fire: fire))
    }

    /// Timers armed and not yet fired.
    var armedCount: Int { state.withLockedValue { $0.armed.count } }

    /// Returns once every timer due at the clock's current time has fired and its action has been
    /// applied (or found stale). Tests advance a manual clock, then await this instead of sleeping.
    func settled() async {
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            let now = clock.now
            let ready = state.withLockedValue { state -> Bool in
                if state.armed.values.contains(where: { $0 <= now }) {
                    state.settleWaiters.append(waiter)
                    return false
                }
                return true
            }
            if ready { waiter.resume() }
        }
    }

    /// Runs the timers until the calling task is cancelled. Call once.
    func run() async {
        let clock = clock
        await withDiscardingTaskGroup { group in
            // Ends (nil) when this task is cancelled; the group then cancels every sleeping timer.
            for await timer in requests {
                group.addTask {
                    defer { self.finished(timer.id) }
                    do {
                        try await clock.sleep(until: timer.due)
                    } catch {
                        return
                    }
                    await timer.fire()
                }
            }
            group.cancelAll()
        }
    }

    private func finished(_ id: Int) {
        let now = clock.now
        let waiters = state.withLockedValue { state -> [CheckedContinuation<Void, Never>] in
            state.armed.removeValue(forKey: id)
            guard !state.armed.values.contains(where: { $0 <= now }) else { return [] }
            defer { state.settleWaiters = [] }
            return state.settleWaiters
        }
        for waiter in waiters { waiter.resume() }
    }
}
