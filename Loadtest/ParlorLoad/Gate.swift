import Synchronization

/// A one-shot signal carrying a value: many tasks wait, the first `open` releases them all. Waiting
/// after it opened returns at once. A cancelled waiter gets nil, so gates never pin a task. Instead of
/// a task waiting, a connection can leave a closure (`onOpen`): thousands of connections waiting for the
/// run's start or end then cost a closure each, not a suspended task each.
final class Gate<Value: Sendable>: Sendable {
    private struct State {
        var value: Value?
        var waiters: [UInt64: CheckedContinuation<Value?, Never>] = [:]
        var nextWaiter: UInt64 = 0
        var actions: [@Sendable (Value) -> Void] = []
    }

    private let state = Mutex(State())

    init() {}

    /// Opens the gate with `value`; later calls change nothing. Returns whether this call opened it.
    @discardableResult
    func open(_ value: Value) -> Bool {
        let released: ([CheckedContinuation<Value?, Never>], [@Sendable (Value) -> Void])? = state.withLock { state in
            guard state.value == nil else { return nil }
            state.value = value
            defer {
                state.waiters = [:]
                state.actions = []
            }
            return (Array(state.waiters.values), state.actions)
        }
        guard let (waiters, actions) = released else { return false }
        for waiter in waiters { waiter.resume(returning: value) }
        for action in actions { action(value) }
        return true
    }

    /// Runs `action` with the value when the gate opens (at once, here, if it is open), on the thread
    /// that opens it: keep it short, or hand the work on.
    func onOpen(_ action: @escaping @Sendable (Value) -> Void) {
        let open: Value? = state.withLock { state in
            if let value = state.value { return value }
            state.actions.append(action)
            return nil
        }
        if let open { action(open) }
    }

    /// The value, if the gate is open.
    var value: Value? { state.withLock { $0.value } }

    var isOpen: Bool { value != nil }

    /// Waits until the gate opens; nil if the task is cancelled first.
    func wait() async -> Value? {
        let id = state.withLock { state -> UInt64 in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Value?, Never>) in
                let immediate: Value?? = state.withLock { state in
                    if let value = state.value { return .some(value) }
                    if Task.isCancelled { return .some(nil) }
                    state.waiters[id] = continuation
                    return .none
                }
                if let immediate { continuation.resume(returning: immediate) }
            }
        } onCancel: {
            let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
            waiter?.resume(returning: nil)
        }
    }

    /// Waits at most `timeout`; nil if it did not open by then.
    func wait(timeout: Duration) async -> Value? {
        await withTaskGroup(of: Value?.self) { group in
            group.addTask { await self.wait() }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }
}

/// Lets at most `limit` tasks through at once (the pacing of set-up phases).
final class AsyncSemaphore: Sendable {
    private struct State {
        var available: Int
        var waiters: [CheckedContinuation<Void, Never>] = []
        var head = 0
    }

    private let state: Mutex<State>

    init(_ limit: Int) {
        state = Mutex(State(available: limit))
    }

    func acquire() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let granted = state.withLock { state -> Bool in
                if state.available > 0 {
                    state.available -= 1
                    return true
                }
                state.waiters.append(continuation)
                return false
            }
            if granted { continuation.resume() }
        }
    }

    func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard state.head < state.waiters.count else {
                state.available += 1
                return nil
            }
            let waiter = state.waiters[state.head]
            state.head += 1
            if state.head > 1024 && state.head * 2 > state.waiters.count {
                state.waiters.removeFirst(state.head)
                state.head = 0
            }
            return waiter
        }
        next?.resume()
    }
}
