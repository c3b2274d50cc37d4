import NIOConcurrencyHelpers

/// A one-shot signal that a server is shutting down, which any number of tasks can wait for.
public final class ShutdownSignal: Sendable {
    private struct State {
        var fired = false
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
        var callbacks: [Int: @Sendable () -> Void] = [:]
        var nextID = 0

        mutating func takeID() -> Int {
            nextID += 1
            return nextID
        }
    }

    // One struct mutated in place: each registration is O(1) (an enum payload would copy its dictionaries
    // on every change, which made registering n waiters O(n²)).
    private let state = NIOLockedValueBox(State())

    public init() {}

    public var isFired: Bool { state.withLockedValue { $0.fired } }

    public func fire() {
        let (waiters, callbacks) = state.withLockedValue { state -> ([CheckedContinuation<Void, Never>], [@Sendable () -> Void]) in
            guard !state.fired else { return ([], []) }
            state.fired = true
            defer {
                state.waiters = [:]
                state.callbacks = [:]
            }
            return (Array(state.waiters.values), Array(state.callbacks.values))
        }
        for waiter in waiters { waiter.resume() }
        for callback in callbacks { callback() }
    }

    /// Calls `callback` once when the signal fires (at once, on this thread, if it already has). Costs no
    /// task while waiting, unlike `wait()`. Returns a handle for `removeCallback(_:)`.
    @discardableResult
    public func onFire(_ callback: @escaping @Sendable () -> Void) -> Int {
        let (id, registered) = state.withLockedValue { state -> (Int, Bool) in
            let id = state.takeID()
            guard !state.fired else { return (id, false) }
            state.callbacks[id] = callback
            return (id, true)
        }
        if !registered { callback() }
        return id
    }

    /// Forgets a callback that has not run yet.
    public func removeCallback(_ id: Int) {
        state.withLockedValue { _ = $0.callbacks.removeValue(forKey: id) }
    }

    /// Returns once the signal fires (at once if it already has), or when the waiting task is cancelled.
    public func wait() async {
        let id = state.withLockedValue { $0.takeID() }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLockedValue { state -> Bool in
                    guard !state.fired, !Task.isCancelled else { return true }
                    state.waiters[id] = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLockedValue { $0.waiters.removeValue(forKey: id) }
            waiter?.resume()
        }
    }
}
