import Foundation
import NIOConcurrencyHelpers
import ParlorRules

/// Where the server reads the time and waits for deadlines. Rooms and lobbies take one, so tests pass a
/// ``ManualClock`` and never sleep.
public protocol ParlorClock: Sendable {
    /// The current wall-clock time.
    var now: Instant { get }
    /// Returns at or after `deadline` (at once if it has passed); throws if the task is cancelled.
    func sleep(until deadline: Instant) async throws
}

/// The system's wall clock.
public struct SystemClock: ParlorClock {
    public init() {}

    public var now: Instant {
        Instant(millisecondsSinceEpoch: Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)))
    }

    public func sleep(until deadline: Instant) async throws {
        // Sleep in bounded steps and re-read the wall clock, so a clock adjustment cannot strand a
        // deadline for long.
        while true {
            let remaining = deadline.millisecondsSinceEpoch - now.millisecondsSinceEpoch
            if remaining <= 0 { return }
            try await Task.sleep(for: .milliseconds(min(remaining, 60_000)))
        }
    }
}

/// A clock that moves only when a test says so.
public final class ManualClock: ParlorClock {
    private struct Sleeper {
        let deadline: Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now: Instant
        var sleepers: [Int: Sleeper] = [:]
        var nextID = 0
    }

    private let state: NIOLockedValueBox<State>

    public init(now: Instant = Instant(millisecondsSinceEpoch: 1_800_000_000_000)) {
        state = NIOLockedValueBox(State(now: now))
    }

    public var now: Instant { state.withLockedValue { $0.now } }

    /// Tasks currently waiting in `sleep(until:)`.
    public var sleeperCount: Int { state.withLockedValue { $0.sleepers.count } }

    /// Moves time forward and wakes every sleeper whose deadline has come.
    public func advance(bySeconds seconds: Double) {
        advance(to: Instant(millisecondsSinceEpoch: now.millisecondsSinceEpoch + Int64(seconds * 1000)))
    }

    public func advance(to instant: Instant) {
        let due = state.withLockedValue { state -> [CheckedContinuation<Void, any Error>] in
            state.now = max(state.now, instant)
            let ready = state.sleepers.filter { $0.value.deadline <= state.now }
            for id in ready.keys { state.sleepers.removeValue(forKey: id) }
            return ready.values.map(\.continuation)
        }
        for continuation in due { continuation.resume() }
    }

    public func sleep(until deadline: Instant) async throws {
        let id = state.withLockedValue { state -> Int in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let resumeNow = state.withLockedValue { state -> Bool in
                    if deadline <= state.now || Task.isCancelled { return true }
                    state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    return false
                }
                if resumeNow {
                    if Task.isCancelled { continuation.resume(throwing: CancellationError()) } else { continuation.resume() }
                }
            }
        } onCancel: {
            let sleeper = state.withLockedValue { $0.sleepers.removeValue(forKey: id) }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }
}
