import Synchronization

/// Follows one room's versions across its members, to measure the fan-out latency players feel: from a
/// change's scheduled time until every member (players and spectators) holds a room version at least
/// as new as the one the change's reply carried.
///
/// Each member records the highest version it has seen. A member that skips versions (the server
/// conflates snapshots for a slow reader, as the protocol allows) has thereby caught up with every
/// version it skipped. A version's record is made by whichever comes first, the reply or the first
/// member to see it, and is dropped once the reply is in and every member has it, so the tracker holds
/// only versions still in flight.
///
/// A member that leaves the stream (its connection dropped, or it unsubscribed) is lost: versions stop
/// waiting for it. One that comes back (`memberReturned`, before it observes again) is counted again
/// from its first event on — which may repeat the version it last saw — for versions nobody knew of
/// when it returned; its versions must still only go up.
final class FanOutTracker: Sendable {
    /// What one room looked like at the end of a run.
    struct Outcome: Codable, Sendable {
        var code: String
        /// The newest version any member saw or any reply carried.
        var finalVersion: Int
        /// The version when the measurement started (after the game started).
        var startVersion: Int
        /// Each member's last seen version, players first, then spectators.
        var lastSeen: [Int]
        /// Events whose version was not above the member's previous one.
        var nonIncreasing: Int
        /// Members still connected at the end whose last version is not the final one.
        var behind: Int
        /// Members whose connection ended before the run did.
        var lost: Int
        /// Versions some member never received (or whose reply never came) by the end of the drain.
        var incomplete: Int
        /// Versions dropped from tracking because too many were in flight at once.
        var dropped: Int
    }

    /// At most this many versions in flight per room; older ones are dropped (and counted) past it.
    static let maxInFlight = 4096

    private struct Record {
        var scheduled: ContinuousClock.Instant?
        var remaining: Int
        var completedAt: ContinuousClock.Instant?
    }

    private struct State {
        var code = ""
        var seen: [Int]
        var lost: [Bool]
        var nonIncreasing = 0
        var dropped = 0
        /// Versions up to this one belong to set-up; nil until the game has started.
        var baseline: Int?
        var highestReply = 0
        var records: [Int: Record] = [:]
        var aliveCount: Int
        /// Members that were lost and observe again: their next event brings them back.
        var returning: [Bool]
        /// Members that observe again on another node (they moved there during set-up): their next
        /// event is the current version, which may equal the last one they saw.
        var moving: [Bool]
        /// A member that came back counts only for versions after this one (0: every version).
        var countsAfter: [Int]
        var maxCountsAfter = 0

        /// Members alive but not counted for `version` (they came back after it was known).
        func uncounted(_ version: Int) -> Int {
            guard version <= maxCountsAfter else { return 0 }
            return seen.indices.count { !lost[$0] && countsAfter[$0] >= version }
        }
    }

    let memberCount: Int
    private let state: Mutex<State>
    private let fanOut: LatencyRecorder
    /// Opens once every member holds the baseline version (the room is ready to measure).
    let caughtUp = Gate<Bool>()

    init(memberCount: Int, fanOut: LatencyRecorder) {
        self.memberCount = memberCount
        self.fanOut = fanOut
        state = Mutex(
            State(
                seen: Array(repeating: 0, count: memberCount), lost: Array(repeating: false, count: memberCount),
                aliveCount: memberCount, returning: Array(repeating: false, count: memberCount),
                moving: Array(repeating: false, count: memberCount),
                countsAfter: Array(repeating: 0, count: memberCount)))
    }

    func setCode(_ code: String) {
        state.withLock { $0.code = code }
    }

    /// Member `member` received a room event carrying `version`.
    func memberSaw(_ member: Int, version: Int, at now: ContinuousClock.Instant) {
        var completed: [Duration] = []
        let allCaughtUp = state.withLock { state -> Bool in
            let previous = state.seen[member]
            if state.moving[member], version == previous {
                state.moving[member] = false
                return false
            }
            state.moving[member] = false
            if state.returning[member] {
                // The first event after observing again is the current version: it may equal the last one seen.
                guard version >= previous else {
                    state.nonIncreasing += 1
                    return false
                }
                state.seen[member] = version
                state.returning[member] = false
                state.lost[member] = false
                state.aliveCount += 1
                // Versions already known were counted without this member; it counts from the next one on.
                let horizon = max(state.highestReply, state.seen.max() ?? 0)
                state.countsAfter[member] = horizon
                state.maxCountsAfter = max(state.maxCountsAfter, horizon)
                return false
            }
            guard version > previous else {
                state.nonIncreasing += 1
                return false
            }
            state.seen[member] = version
            // A lost member's events (an unsubscribe crossing a change) are checked, not counted.
            guard !state.lost[member], let baseline = state.baseline else { return false }
            let caughtUpNow =
                previous < baseline && version >= baseline
                && state.seen.indices.allSatisfy { state.lost[$0] || state.seen[$0] >= baseline }
            let first = max(previous, baseline, state.countsAfter[member]) + 1
            if first <= version {
                for tracked in first...version {
                    var record = state.records[tracked] ?? Record(remaining: state.aliveCount - state.uncounted(tracked))
                    record.remaining -= 1
                    if record.remaining > 0 {
                        state.records[tracked] = record
                    } else if let scheduled = record.scheduled {
                        completed.append(now - scheduled)
                        state.records[tracked] = nil
                    } else {
                        record.completedAt = now
                        state.records[tracked] = record
                    }
                }
            }
            Self.bound(&state)
            return caughtUpNow
        }
        for latency in completed { fanOut.record(latency) }
        if allCaughtUp { caughtUp.open(true) }
    }

    /// The reply to a change scheduled at `scheduled` carried `version`.
    func replied(version: Int, scheduled: ContinuousClock.Instant) {
        let latency = state.withLock { state -> Duration? in
            state.highestReply = max(state.highestReply, version)
            guard let baseline = state.baseline, version > baseline else { return nil }
            if var record = state.records[version] {
                if record.remaining <= 0 && record.completedAt == nil {
                    // Complete only because members were lost: no latency to report.
                    state.records[version] = nil
                    return nil
                }
                if let completedAt = record.completedAt {
                    state.records[version] = nil
                    return completedAt - scheduled
                }
                record.scheduled = scheduled
                state.records[version] = record
                return nil
            }
            let remaining = state.seen.indices.count {
                !state.lost[$0] && state.seen[$0] < version && state.countsAfter[$0] < version
            }
            guard remaining > 0 else { return nil }
            state.records[version] = Record(scheduled: scheduled, remaining: remaining)
            Self.bound(&state)
            return nil
        }
        if let latency { fanOut.record(latency) }
    }

    /// The game started at `version`: changes after it are measured.
    func setBaseline(_ version: Int) {
        let ready = state.withLock { state -> Bool in
            state.baseline = version
            state.highestReply = max(state.highestReply, version)
            return state.seen.indices.allSatisfy { state.lost[$0] || state.seen[$0] >= version }
        }
        if ready { caughtUp.open(true) }
    }

    /// Member `member`'s connection ended early: versions no longer wait for it.
    func memberLost(_ member: Int) {
        let ready = state.withLock { state -> Bool in
            guard !state.lost[member] else {
                state.returning[member] = false
                return false
            }
            state.lost[member] = true
            state.aliveCount -= 1
            for (version, var record) in state.records where state.seen[member] < version && state.countsAfter[member] < version {
                record.remaining -= 1
                // Complete only because members were lost: no latency to report.
                state.records[version] = record.remaining <= 0 && record.scheduled != nil ? nil : record
            }
            guard let baseline = state.baseline else { return false }
            return state.seen.indices.allSatisfy { state.lost[$0] || state.seen[$0] >= baseline }
        }
        if ready { caughtUp.open(true) }
    }

    /// Member `member` is about to observe the room again on the node of a cluster that serves it.
    func memberMoving(_ member: Int) {
        state.withLock { $0.moving[member] = true }
    }

    /// Member `member`, lost, is about to observe the room again: its next event brings it back.
    func memberReturned(_ member: Int) {
        state.withLock { state in
            guard state.lost[member] else { return }
            state.returning[member] = true
        }
    }

    /// Versions still in flight (the drain waits for none).
    var inFlight: Int { state.withLock { $0.records.count } }

    var outcome: Outcome {
        state.withLock { state in
            let finalVersion = max(state.highestReply, state.seen.max() ?? 0)
            return Outcome(
                code: state.code, finalVersion: finalVersion, startVersion: state.baseline ?? 0, lastSeen: state.seen,
                nonIncreasing: state.nonIncreasing,
                behind: state.seen.indices.count { !state.lost[$0] && state.seen[$0] != finalVersion }, lost: state.lost.count { $0 }, incomplete: state.records.count,
                dropped: state.dropped)
        }
    }

    private static func bound(_ state: inout State) {
        while state.records.count > maxInFlight, let oldest = state.records.keys.min() {
            state.records[oldest] = nil
            state.dropped += 1
        }
    }
}
