import NIOCore
import Synchronization

/// The actions due on one event loop: every player whose connection lives on the loop leaves its next
/// action here, and one NIO timer — for the earliest — runs them as they come due.
///
/// A timer per action, as the players used to schedule them, puts thousands of `ScheduledTask`s in
/// NIO's own heap, whose every sift copies one (retaining and releasing its references): at 500 rooms ×
/// 8 that was a sixth of the generator's user-space CPU (`perf`, docs/BENCHMARKS.md, "The generator").
/// Here a pending action is a plain (due, slot) pair in a heap of our own, with nothing to count, and
/// NIO holds one timer per loop.
///
/// `@unchecked Sendable`: everything that changes is touched only on `eventLoop`.
final class LoopTimetable: @unchecked Sendable {
    /// What a slot runs when its action comes due.
    typealias Action = (_ due: ContinuousClock.Instant) -> Void

    private struct Entry {
        var due: ContinuousClock.Instant
        var slot: Int32
    }

    let eventLoop: any EventLoop
    private var heap: [Entry] = []
    private var actions: [Action?] = []
    private var timer: Scheduled<Void>?
    private var timerDue: ContinuousClock.Instant?

    init(eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    /// On the loop: a slot whose entries run `action` (a player's, for the run: slots are not reused).
    func register(_ action: @escaping Action) -> Int32 {
        eventLoop.preconditionInEventLoop()
        actions.append(action)
        return Int32(actions.count - 1)
    }

    /// On the loop: the slot's action no longer runs (and lets go of what it holds); an entry still
    /// pending for it is dropped when due.
    func release(_ slot: Int32) {
        eventLoop.preconditionInEventLoop()
        actions[Int(slot)] = nil
    }

    /// On the loop: runs `slot`'s action with `due` once `due` has come (on the timer's next pass if it
    /// already has).
    func schedule(_ slot: Int32, at due: ContinuousClock.Instant) {
        eventLoop.preconditionInEventLoop()
        heap.append(Entry(due: due, slot: slot))
        siftUp(heap.count - 1)
        arm()
    }

    // MARK: The timer

    /// Makes sure the NIO timer fires for the earliest entry.
    private func arm() {
        guard let first = heap.first?.due else { return }
        if let timerDue, timerDue <= first { return }
        timer?.cancel()
        timerDue = first
        timer = eventLoop.scheduleTask(in: Self.timeAmount(until: first)) { [self] in fire() }
    }

    private func fire() {
        timer = nil
        timerDue = nil
        let now = ContinuousClock.now
        while let first = heap.first, first.due <= now {
            popFirst()
            actions[Int(first.slot)]?(first.due)
        }
        arm()
    }

    private static func timeAmount(until instant: ContinuousClock.Instant) -> TimeAmount {
        let wait = ContinuousClock.now.duration(to: instant)
        let nanoseconds = wait.components.seconds * 1_000_000_000 + wait.components.attoseconds / 1_000_000_000
        return .nanoseconds(max(0, nanoseconds))
    }

    // MARK: The heap (earliest due first)

    private func popFirst() {
        let last = heap.removeLast()
        guard !heap.isEmpty else { return }
        heap[0] = last
        siftDown(0)
    }

    private func siftUp(_ index: Int) {
        var child = index
        let entry = heap[child]
        while child > 0 {
            let parent = (child - 1) / 2
            guard entry.due < heap[parent].due else { break }
            heap[child] = heap[parent]
            child = parent
        }
        heap[child] = entry
    }

    private func siftDown(_ index: Int) {
        var parent = index
        let entry = heap[parent]
        let count = heap.count
        while true {
            var child = 2 * parent + 1
            guard child < count else { break }
            if child + 1 < count && heap[child + 1].due < heap[child].due { child += 1 }
            guard heap[child].due < entry.due else { break }
            heap[parent] = heap[child]
            parent = child
        }
        heap[parent] = entry
    }
}

/// One `LoopTimetable` per event loop, made when a loop's first player asks for it.
final class LoopTimetables: Sendable {
    private let timetables = Mutex<[ObjectIdentifier: LoopTimetable]>([:])

    init() {}

    func timetable(for eventLoop: any EventLoop) -> LoopTimetable {
        timetables.withLock { timetables in
            let key = ObjectIdentifier(eventLoop)
            if let timetable = timetables[key] { return timetable }
            let timetable = LoopTimetable(eventLoop: eventLoop)
            timetables[key] = timetable
            return timetable
        }
    }
}
