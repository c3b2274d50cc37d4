import NIOConcurrencyHelpers

/// A one-shot signal that a server is shutting down, which any number of tasks can wait for.
public final class ShutdownSignal: Sendable {
    private enum State {
        case waiting([Int: CheckedContinuation<Void, Never>])
        case fired
    }

    private let state = NIOLockedValueBox(State.waiting([:]))
    private let nextWaiterID = NIOLockedValueBox(0)

    public init() {}

    public var isFired: Bool {
        state.withLockedValue { if case .fired = $0 { true } else { false } }
    }

    public func fire() {
        let waiters = state.withLockedValue { state -> [CheckedContinuation<Void, Never>] in
            guard case .waiting(let waiters) = state else { return [] }
            state = .fired
            return Array(waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once the signal fires (at once if it already has), or when the waiting task is cancelled.
    public func wait() async {
        let id = nextWaiterID.withLockedValue { id -> Int in
            id += 1
            return id
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLockedValue { state -> Bool in
                    guard case .waiting(var waiters) = state, !Task.isCancelled else { return true }
                    waiters[id] = continuation
                    state = .waiting(waiters)
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLockedValue { state -> CheckedContinuation<Void, Never>? in
                guard case .waiting(var waiters) = state, let waiter = waiters.removeValue(forKey: id) else { return nil }
                state = .waiting(waiters)
                return waiter
            }
            waiter?.resume()
        }
    }
}
