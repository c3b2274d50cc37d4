import NIOConcurrencyHelpers

/// A first-come, first-served async lock shared by a session's tasks: the request loop holds it while
/// it handles a request, and a shutdown waits for it so that an operation in flight is answered
/// before the connection is closed.
final class AsyncMutex: Sendable {
    private let gate = NIOLockedValueBox(GateState())

    func lock() async {
        if gate.withLockedValue({ $0.tryEnter() }) { return }
        await withCheckedContinuation { continuation in
            // Between the failed tryEnter and here the holder may have left; enqueue or take it now.
            let entered = gate.withLockedValue { gate -> Bool in
                if gate.tryEnter() { return true }
                gate.enqueue(continuation)
                return false
            }
            if entered { continuation.resume() }
        }
    }

    func unlock() {
        gate.withLockedValue { $0.leave() }?.resume()
    }
}
