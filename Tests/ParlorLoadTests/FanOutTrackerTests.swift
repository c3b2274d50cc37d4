import Testing
@testable import ParlorLoad

/// The tracker behind the `rooms` and `soak` checks: versions only go up per member, a change is
/// complete once every member still in the room holds it, and a member that leaves the stream and
/// comes back is counted again without leaving versions it was never counted for incomplete.
@Suite struct FanOutTrackerTests {
    private let t0 = ContinuousClock.now

    private func tracker(members: Int) -> (FanOutTracker, LatencyRecorder) {
        let fanOut = LatencyRecorder()
        let tracker = FanOutTracker(memberCount: members, fanOut: fanOut)
        tracker.setBaseline(1)
        for member in 0..<members { tracker.memberSaw(member, version: 1, at: t0) }
        return (tracker, fanOut)
    }

    @Test func aChangeIsCompleteOnceEveryMemberHasIt() {
        let (tracker, fanOut) = tracker(members: 3)
        #expect(tracker.caughtUp.isOpen)
        tracker.replied(version: 2, scheduled: t0)
        tracker.memberSaw(0, version: 2, at: t0 + .milliseconds(1))
        tracker.memberSaw(1, version: 2, at: t0 + .milliseconds(2))
        #expect(tracker.inFlight == 1 && fanOut.count == 0)
        tracker.memberSaw(2, version: 2, at: t0 + .milliseconds(3))
        #expect(tracker.inFlight == 0 && fanOut.count == 1)
        let outcome = tracker.outcome
        #expect(outcome.finalVersion == 2 && outcome.behind == 0 && outcome.nonIncreasing == 0)
    }

    @Test func aVersionThatDoesNotGoUpIsCounted() {
        let (tracker, _) = tracker(members: 2)
        tracker.memberSaw(0, version: 3, at: t0)
        tracker.memberSaw(0, version: 3, at: t0)
        tracker.memberSaw(0, version: 2, at: t0)
        #expect(tracker.outcome.nonIncreasing == 2)
    }

    @Test func aLostMemberIsNotWaitedForAndItsLateEventsAreCheckedOnly() {
        let (tracker, fanOut) = tracker(members: 3)
        tracker.memberLost(2)
        tracker.replied(version: 2, scheduled: t0)
        tracker.memberSaw(0, version: 2, at: t0)
        tracker.memberSaw(1, version: 2, at: t0)
        #expect(tracker.inFlight == 0 && fanOut.count == 1)
        // An event crossing an unsubscribe still arrives: it must go up, and completes nothing.
        tracker.memberSaw(2, version: 2, at: t0)
        tracker.memberSaw(2, version: 2, at: t0)
        #expect(tracker.inFlight == 0)
        #expect(tracker.outcome.nonIncreasing == 1)
        #expect(tracker.outcome.behind == 0, "a lost member is not behind")
    }

    @Test func aReturningMemberMayRepeatItsLastVersionOnceAndCountsAgain() {
        let (tracker, fanOut) = tracker(members: 3)
        tracker.memberLost(2)
        tracker.memberReturned(2)
        // Observing again, it gets the current version first: the one it already had.
        tracker.memberSaw(2, version: 1, at: t0)
        #expect(tracker.outcome.nonIncreasing == 0)
        tracker.replied(version: 2, scheduled: t0)
        tracker.memberSaw(0, version: 2, at: t0)
        tracker.memberSaw(1, version: 2, at: t0)
        #expect(tracker.inFlight == 1, "version 2 waits for the member that came back")
        tracker.memberSaw(2, version: 2, at: t0)
        #expect(tracker.inFlight == 0 && fanOut.count == 1)
        // Only the first event after observing again may repeat.
        tracker.memberSaw(2, version: 2, at: t0)
        #expect(tracker.outcome.nonIncreasing == 1)
    }

    @Test func versionsInFlightWhileAMemberWasAwayNeverWaitForIt() {
        let (tracker, fanOut) = tracker(members: 3)
        tracker.memberLost(2)
        // Versions 2 and 3 are changed while member 2 is away; the others have them, one reply is in.
        tracker.replied(version: 2, scheduled: t0)
        tracker.memberSaw(0, version: 3, at: t0)
        tracker.memberSaw(1, version: 3, at: t0)
        #expect(fanOut.count == 1)
        // It comes back; its first event is version 2 (it attached before 3 was published), then 3.
        tracker.memberReturned(2)
        tracker.memberSaw(2, version: 2, at: t0)
        tracker.replied(version: 3, scheduled: t0)
        tracker.memberSaw(2, version: 3, at: t0)
        #expect(tracker.inFlight == 0, "nothing is left waiting for a member it was never counted for")
        #expect(fanOut.count == 2)
        // From then on it counts like everyone else.
        tracker.replied(version: 4, scheduled: t0)
        tracker.memberSaw(0, version: 4, at: t0)
        tracker.memberSaw(1, version: 4, at: t0)
        #expect(tracker.inFlight == 1)
        tracker.memberSaw(2, version: 4, at: t0)
        #expect(tracker.inFlight == 0 && fanOut.count == 3)
        let outcome = tracker.outcome
        #expect(outcome.behind == 0 && outcome.incomplete == 0 && outcome.nonIncreasing == 0 && outcome.lost == 0)
    }

    @Test func aMemberLostAgainBeforeItsFirstEventStaysLost() {
        let (tracker, _) = tracker(members: 2)
        tracker.memberLost(1)
        tracker.memberReturned(1)
        tracker.memberLost(1)
        tracker.replied(version: 2, scheduled: t0)
        tracker.memberSaw(0, version: 2, at: t0)
        #expect(tracker.inFlight == 0)
        #expect(tracker.outcome.lost == 1)
    }
}
