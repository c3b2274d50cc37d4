import Synchronization

/// The newest version one member has seen, and tasks waiting for it to reach a number: a darts player
/// throws only once its view shows that the visit before its own is in.
final class VersionWatch: Sendable {
    private struct State {
        var seen = 0
        var waiters: [(version: Int, id: UInt64, continuation: CheckedContinuation<Bool, Never>)] = []
        var nextWaiter: UInt64 = 0
    }

    private let state = Mutex(State())

    /// The member saw `version`.
    func saw(_ version: Int) {
        let released = state.withLock { state -> [CheckedContinuation<Bool, Never>] in
            guard version > state.seen else { return [] }
            state.seen = version
            let ready = state.waiters.filter { $0.version <= version }
            state.waiters.removeAll { $0.version <= version }
            return ready.map(\.continuation)
        }
        for waiter in released { waiter.resume(returning: true) }
    }

    var seen: Int { state.withLock { $0.seen } }

    /// Waits until the member has seen `version`; false if the task is cancelled first.
    func wait(atLeast version: Int) async -> Bool {
        let id = state.withLock { state -> UInt64 in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let immediate: Bool? = state.withLock { state in
                    if state.seen >= version { return true }
                    if Task.isCancelled { return false }
                    state.waiters.append((version, id, continuation))
                    return nil
                }
                if let immediate { continuation.resume(returning: immediate) }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Bool, Never>? in
                guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                return state.waiters.remove(at: index).continuation
            }
            waiter?.resume(returning: false)
        }
    }
}
