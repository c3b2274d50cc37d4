import NIOConcurrencyHelpers

/// A one-shot signal that a server is shutting down, which any number of tasks can wait for.
public final class ShutdownSignal: Sendable {
    private enum State {
        case waiting([Int: CheckedContinuation<Void, Never>], callbacks: [Int: @Sendable () -> Void])
        case fired
    }

    private let state = NIOLockedValueBox(State.waiting([:], callbacks: [:]))
    private let nextWaiterID = NIOLockedValueBox(0)

    public init() {}

    public var isFired: Bool {
        state.withLockedValue { if case .fired = $0 { true } else { false } }
    }

    public func fire() {
        let (waiters, callbacks) = state.withLockedValue { state -> ([CheckedContinuation<Void, Never>], [@Sendable () -> Void]) in
            guard case .waiting(let waiters, let callbacks) = state else { return ([], []) }
            state = .fired
            return (Array(waiters.values), Array(callbacks.values))
        }
        for waiter in waiters { waiter.resume() }
        for callback in callbacks { callback() }
    }

    /// Calls `callback` once when the signal fires (at once, on this thread, if it already has). Costs no
    /// task while waiting, unlike `wait()`. Returns a handle for `removeCallback(_:)`.
    @discardableResult
    public func onFire(_ callback: @escaping @Sendable () -> Void) -> Int {
        let id = nextWaiterID.withLockedValue { id -> Int in
            id += 1
            return id
        }
        let registered = state.withLockedValue { state -> Bool in
            guard case .waiting(let waiters, var callbacks) = state else { return false }
            callbacks[id] = callback
            state = .waiting(waiters, callbacks: callbacks)
            return true
        }
        if !registered { callback() }
        return id
    }

    /// Forgets a callback that has not run yet.
    public func removeCallback(_ id: Int) {
        state.withLockedValue { state in
            guard case .waiting(let waiters, var callbacks) = state else { return }
            callbacks.removeValue(forKey: id)
            state = .waiting(waiters, callbacks: callbacks)
        }
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
                    guard case .waiting(var waiters, let callbacks) = state, !Task.isCancelled else { return true }
                    waiters[id] = continuation
                    state = .waiting(waiters, callbacks: callbacks)
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLockedValue { state -> CheckedContinuation<Void, Never>? in
                guard case .waiting(var waiters, let callbacks) = state, let waiter = waiters.removeValue(forKey: id) else {
                    return nil
                }
                state = .waiting(waiters, callbacks: callbacks)
                return waiter
            }
            waiter?.resume()
        }
    }
}
