import NIOConcurrencyHelpers

/// A one-shot signal that a server is shutting down, which any number of tasks can wait for.
public final class ShutdownSignal: Sendable {
    private enum State {
        case waiting([CheckedContinuation<Void, Never>])
        case fired
    }

    private let state = NIOLockedValueBox(State.waiting([]))

    public init() {}

    public var isFired: Bool {
        state.withLockedValue { if case .fired = $0 { true } else { false } }
    }

    public func fire() {
        let waiters = state.withLockedValue { state -> [CheckedContinuation<Void, Never>] in
            guard case .waiting(let waiters) = state else { return [] }
            state = .fired
            return waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once the signal fires (at once if it already has). Cancellation does not end the wait
    /// early; race it against other work in a task group when that matters.
    public func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumeNow = state.withLockedValue { state -> Bool in
                guard case .waiting(var waiters) = state else { return true }
                waiters.append(continuation)
                state = .waiting(waiters)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }
}
