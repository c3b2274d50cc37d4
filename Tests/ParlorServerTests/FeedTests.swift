import NIOConcurrencyHelpers
import NIOCore
import NIOEmbedded
import ParlorRules
import Testing
import WebSocketCore
@testable import ParlorServer

/// A connection as a feed sees it, on an embedded event loop: records what was written and flushed.
final class RecordingOutput: FeedOutput, @unchecked Sendable {
    let loop: EmbeddedEventLoop
    var writable = true
    /// Each flush's frames, as text.
    private(set) var flushes: [[String]] = []
    private var unflushed: [String] = []
    private(set) var ended: [Int] = []
    private(set) var broadcasts = 0

    init(loop: EmbeddedEventLoop) { self.loop = loop }

    var eventLoop: any EventLoop { loop }
    var isWritable: Bool { writable }
    func write(_ frame: PreparedMessage) { unflushed.append(frame.message.text) }
    func flush() {
        flushes.append(unflushed)
        unflushed = []
    }
    func subscriptionEnded(_ subscription: FeedSubscription) { ended.append(subscription.topic) }
    func broadcastDelivered(publishedAt: NIODeadline) { broadcasts += 1 }

    var frames: [String] { flushes.flatMap { $0 } + unflushed }
}

@Suite struct FeedTests {
    private let user = UserID("0b9d1e3c-3f4a-4c1e-9a0b-2f6c8d7e5a41")!
    private let other = UserID("7c2f5a90-1d3e-4b6a-8f0c-9e1d2a3b4c5d")!

    private func version(_ number: Int, privateFor users: [UserID] = []) -> FeedVersion {
        FeedVersion(
            version: number, frame: PreparedMessage(text: "v\(number)"),
            privateFrames: Dictionary(uniqueKeysWithValues: users.map { ($0, PreparedMessage(text: "p\(number):\($0.rawValue.prefix(4))")) }))
    }

    @Test func everySubscriberGetsTheCurrentVersionThenEachNewOneWithOneFlushPerVersion() throws {
        let loop = EmbeddedEventLoop()
        let feed = Feed()
        feed.publish(version(1))
        let outputs = (0..<3).map { _ in RecordingOutput(loop: loop) }
        for output in outputs { _ = feed.attach(try #require(feed.grant(user: nil)), to: output) }
        feed.publish(version(2))
        feed.publish(version(3))
        loop.run()
        for output in outputs {
            #expect(output.flushes == [["v1"], ["v2"], ["v3"]])
        }
        #expect(feed.subscriberCount == 3)
        // One broadcast record per event loop per version, not one per subscriber.
        #expect(outputs.map(\.broadcasts).reduce(0, +) == 2)
    }

    @Test func olderOrRepeatedVersionsAreNeverSent() throws {
        let loop = EmbeddedEventLoop()
        let feed = Feed()
        let output = RecordingOutput(loop: loop)
        _ = feed.attach(try #require(feed.grant(user: nil)), to: output)
        feed.publish(version(5))
        feed.publish(version(4))
        feed.publish(version(5))
        loop.run()
        #expect(output.frames == ["v5"])
    }

    /// A connection over its high-water mark holds one pending version, the newest, and gets it when it
    /// drains: memory stays flat however far it falls behind, and it ends on the latest version.
    @Test func aSlowSubscriberSkipsToTheNewestVersion() throws {
        let loop = EmbeddedEventLoop()
        let feed = Feed()
        let slow = RecordingOutput(loop: loop)
        let fast = RecordingOutput(loop: loop)
        let slowSubscription = feed.attach(try #require(feed.grant(user: nil)), to: slow)
        _ = feed.attach(try #require(feed.grant(user: nil)), to: fast)
        feed.publish(version(1))
        loop.run()
        slow.writable = false
        for number in 2...50 { feed.publish(version(number)) }
        loop.run()
        #expect(slow.frames == ["v1"])
        #expect(fast.frames == (1...50).map { "v\($0)" })
        slow.writable = true
        #expect(slowSubscription.writable())
        slow.flush()
        #expect(slow.frames == ["v1", "v50"])
        #expect(!slowSubscription.writable())  // nothing pending any more
    }

    @Test func privateFramesGoOnlyToTheirUserAfterThePublicOne() throws {
        let loop = EmbeddedEventLoop()
        let feed = Feed()
        let mine = RecordingOutput(loop: loop)
        let theirs = RecordingOutput(loop: loop)
        let spectator = RecordingOutput(loop: loop)
        _ = feed.attach(try #require(feed.grant(user: user)), to: mine)
        _ = feed.attach(try #require(feed.grant(user: other)), to: theirs)
        _ = feed.attach(try #require(feed.grant(user: nil)), to: spectator)
        feed.publish(version(1, privateFor: [user]))
        loop.run()
        #expect(mine.flushes == [["v1", "p1:0b9d"]])
        #expect(theirs.flushes == [["v1"]])
        #expect(spectator.flushes == [["v1"]])
    }

    @Test func theEndGoesToEverySubscriberLastAndNothingFollowsIt() throws {
        let loop = EmbeddedEventLoop()
        let feed = Feed()
        let slow = RecordingOutput(loop: loop)
        let output = RecordingOutput(loop: loop)
        _ = feed.attach(try #require(feed.grant(user: nil)), to: slow)
        _ = feed.attach(try #require(feed.grant(user: nil)), to: output)
        slow.writable = false
        feed.publish(version(1))
        feed.end(with: [PreparedMessage(text: "null"), PreparedMessage(text: "end")])
        feed.publish(version(2))
        loop.run()
        #expect(output.frames == ["v1", "null", "end"])
        // A subscriber that was behind skips its pending version: the topic is over.
        #expect(slow.frames == ["null", "end"])
        #expect(output.ended == [feed.topic] && slow.ended == [feed.topic])
        #expect(feed.subscriberCount == 0)
        #expect(feed.isEnded && feed.grant(user: nil).map { _ in true } == nil)
    }

    @Test func aGrantAttachedAfterTheEndGetsTheEndFrames() throws {
        let loop = EmbeddedEventLoop()
        let feed = Feed()
        let grant = try #require(feed.grant(user: nil))
        feed.end(with: [PreparedMessage(text: "end")])
        let output = RecordingOutput(loop: loop)
        _ = feed.attach(grant, to: output)
        loop.run()
        #expect(output.frames == ["end"])
        #expect(output.ended == [feed.topic])
        #expect(feed.subscriberCount == 0)
    }

    @Test func cancellingOneSubscriptionLeavesTheOthers() throws {
        let loop = EmbeddedEventLoop()
        let feed = Feed()
        let outputs = (0..<4).map { _ in RecordingOutput(loop: loop) }
        let subscriptions = try outputs.map { feed.attach(try #require(feed.grant(user: nil)), to: $0) }
        subscriptions[1].cancel(with: [PreparedMessage(text: "end")])
        subscriptions[1].cancel(with: [PreparedMessage(text: "end")])  // a second cancel does nothing
        feed.publish(version(1))
        loop.run()
        #expect(outputs[1].frames == ["end"])
        #expect(outputs[1].ended.count == 1)
        for index in [0, 2, 3] { #expect(outputs[index].frames == ["v1"]) }
        #expect(feed.subscriberCount == 3)
        // Removing from the middle moved the last into its place; every slot is still right.
        for subscription in subscriptions { subscription.cancel(with: []) }
        #expect(feed.subscriberCount == 0)
    }

    @Test func revokingAUserEndsOnlyTheirSubscriptions() throws {
        let loop = EmbeddedEventLoop()
        let feed = Feed()
        let mine = RecordingOutput(loop: loop)
        let alsoMine = RecordingOutput(loop: loop)
        let theirs = RecordingOutput(loop: loop)
        _ = feed.attach(try #require(feed.grant(user: user)), to: mine)
        _ = feed.attach(try #require(feed.grant(user: user)), to: alsoMine)
        _ = feed.attach(try #require(feed.grant(user: other)), to: theirs)
        feed.cancel(user: user, with: [PreparedMessage(text: "end")])
        feed.publish(version(1))
        loop.run()
        #expect(mine.frames == ["end"] && alsoMine.frames == ["end"])
        #expect(theirs.frames == ["v1"])
        #expect(feed.subscriberCount == 1)
    }

    /// Subscribers on different event loops each get the version through their own loop.
    @Test func subscribersOnTwoLoopsAreEachReachedOnTheirOwn() throws {
        let first = EmbeddedEventLoop()
        let second = EmbeddedEventLoop()
        let feed = Feed()
        let a = RecordingOutput(loop: first)
        let b = RecordingOutput(loop: second)
        _ = feed.attach(try #require(feed.grant(user: nil)), to: a)
        _ = feed.attach(try #require(feed.grant(user: nil)), to: b)
        feed.publish(version(1))
        first.run()
        #expect(a.frames == ["v1"] && b.frames == [])
        second.run()
        #expect(b.frames == ["v1"])
    }
}
