import NIOConcurrencyHelpers

/// A value many streams follow: each new stream starts with the current value, then gets every change.
final class StateBroadcast<Value: Sendable>: Sendable {
    private struct State {
        var current: Value
        var sinks: [Int: AsyncStream<Value>.Continuation] = [:]
        var nextID = 0
        var finished = false
    }

    private let state: NIOLockedValueBox<State>
    private let buffer: Int

    init(_ initial: Value, buffer: Int = 32) {
        state = NIOLockedValueBox(State(current: initial))
        self.buffer = buffer
    }

    var current: Value { state.withLockedValue { $0.current } }

    func stream() -> AsyncStream<Value> {
        let (stream, continuation) = AsyncStream.makeStream(of: Value.self, bufferingPolicy: .bufferingNewest(buffer))
        let (id, current, finished) = state.withLockedValue { state -> (Int, Value, Bool) in
            state.nextID += 1
            if !state.finished { state.sinks[state.nextID] = continuation }
            return (state.nextID, state.current, state.finished)
        }
        continuation.yield(current)
        if finished {
            continuation.finish()
        } else {
            continuation.onTermination = { [weak self] _ in
                self?.state.withLockedValue { _ = $0.sinks.removeValue(forKey: id) }
            }
        }
        return stream
    }

    func send(_ value: Value) {
        let sinks = state.withLockedValue { state -> [AsyncStream<Value>.Continuation] in
            guard !state.finished else { return [] }
            state.current = value
            return state.sinks.keys.sorted().compactMap { state.sinks[$0] }
        }
        for sink in sinks { sink.yield(value) }
    }

    /// Sends `value` as the last one and ends every stream.
    func finish(with value: Value) {
        let sinks = state.withLockedValue { state -> [AsyncStream<Value>.Continuation] in
            guard !state.finished else { return [] }
            state.current = value
            state.finished = true
            defer { state.sinks = [:] }
            return state.sinks.keys.sorted().compactMap { state.sinks[$0] }
        }
        for sink in sinks {
            sink.yield(value)
            sink.finish()
        }
    }
}
