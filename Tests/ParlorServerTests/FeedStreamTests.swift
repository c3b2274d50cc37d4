import NIOConcurrencyHelpers
import NIOCore
import NIOEmbedded
import NIOPosix
import ParlorRules
import Testing
import WebSocketCore
@testable import ParlorServer

/// The subscriptions' streams themselves (FeedTests checks what subscribers receive): each stream is
/// finished and read to its end with its subscription, the loop's pump runs only while a stream holds
/// something (a quiet subscription costs no task), a burst yielded before the pump runs arrives whole
/// and in order, and on a real event loop every write happens on the connection's own loop.
@Suite struct FeedStreamTests {
    private func version(_ number: Int) -> FeedVersion {
        FeedVersion(version: number, frame: PreparedMessage(text: "v\(number)"))
    }

    @Test func theStreamIsReadToItsEndWhenTheTopicEndsTheSubscriptionIsCancelledOrItsUserRevoked() throws {
        let loop = EmbeddedEventLoop()
        let feed = Feed()
        let user = UserID("0b9d1e3c-3f4a-4c1e-9a0b-2f6c8d7e5a41")!
        let outputs = (0..<3).map { _ in RecordingOutput(loop: loop) }
        let cancelled = feed.attach(try #require(feed.grant(user: nil)), to: outputs[0])
        let revoked = feed.attach(try #require(feed.grant(user: user)), to: outputs[1])
        let ended = feed.attach(try #require(feed.grant(user: nil)), to: outputs[2])
        feed.publish(version(1))
        loop.run()
        #expect(!cancelled.isDrained && !revoked.isDrained && !ended.isDrained)
        // Three live subscriptions with nothing to read: the pump is not running.
        #expect(outputs[0].pump.isIdle)

        cancelled.cancel(with: [PreparedMessage(text: "end")])
        loop.run()
        #expect(cancelled.isDrained && !revoked.isDrained && !ended.isDrained)

        feed.cancel(user: user, with: [PreparedMessage(text: "gone")])
        loop.run()
        #expect(revoked.isDrained && !ended.isDrained)

        feed.publish(version(2))
        feed.end(with: [PreparedMessage(text: "over")])
        loop.run()
        #expect(ended.isDrained)
        #expect(outputs[0].pump.isIdle)
        #expect(outputs.map(\.frames) == [["v1", "end"], ["v1", "gone"], ["v1", "v2", "over"]])
        #expect(outputs.map(\.ended) == [[feed.topic], [feed.topic], [feed.topic]])
    }

    /// Many versions handed to the loop before the pump gets its turn are all kept, in order,
    /// for a reader that keeps up: the stream's buffer never drops one.
    @Test func aBurstYieldedBeforeTheTaskRunsArrivesWholeAndInOrder() throws {
        let loop = EmbeddedEventLoop()
        let feed = Feed()
        let output = RecordingOutput(loop: loop)
        _ = feed.attach(try #require(feed.grant(user: nil)), to: output)
        feed.publish(FeedPresence(sequence: 1, frame: PreparedMessage(text: "here1")))
        for number in 1...200 { feed.publish(version(number)) }
        feed.publish(FeedPresence(sequence: 2, frame: PreparedMessage(text: "here2")))
        #expect(output.frames.isEmpty && !output.pump.isIdle)
        loop.run()
        #expect(output.frames == ["here1"] + (1...200).map { "v\($0)" } + ["here2"])
        #expect(output.broadcasts == 200)
        #expect(output.pump.isIdle)
    }

    /// On NIO's own event loops: versions published from other threads are written, and the pump
    /// runs, on the subscriber's loop only, and the first event follows what the connection was
    /// sent before the subscription was attached.
    @Test func onARealEventLoopEveryWriteHappensOnTheConnectionsLoop() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 2)
        let loops = [group.next(), group.next()]
        let feed = Feed()
        let outputs = loops.map { ThreadCheckingOutput(loop: $0) }
        for output in outputs {
            try await output.loop.submit {
                output.write(PreparedMessage(text: "reply"))
                output.flush()
                _ = feed.attach(feed.grant(user: nil)!, to: output)
            }.get()
        }
        await withTaskGroup(of: Void.self) { publishers in
            for start in [1, 1001] {
                publishers.addTask {
                    for number in start..<(start + 1000) { feed.publish(FeedVersion(version: number, frame: PreparedMessage(text: "v\(number)"))) }
                }
            }
        }
        feed.end(with: [PreparedMessage(text: "end")])
        for output in outputs {
            let (frames, offLoop, versionsInOrder) = try await output.waitForEnd()
            #expect(offLoop == 0)
            #expect(frames.first == "reply" && frames.last == "end")
            #expect(versionsInOrder)
        }
        try await group.shutdownGracefully()
    }
}

/// A connection on a real event loop: counts writes made off its loop, and whether the versions it
/// was sent rise strictly.
final class ThreadCheckingOutput: FeedOutput, @unchecked Sendable {
    let loop: any EventLoop
    private var frames: [String] = []
    private var offLoop = 0
    private var lastVersion = 0
    private var versionsInOrder = true
    private let ended: EventLoopPromise<Void>

    init(loop: any EventLoop) {
        self.loop = loop
        ended = loop.makePromise()
    }

    var eventLoop: any EventLoop { loop }
    var isWritable: Bool { true }
    func write(_ frame: PreparedMessage) {
        if !loop.inEventLoop { offLoop += 1 }
        let text = frame.message.text
        if text.hasPrefix("v"), let number = Int(text.dropFirst()) {
            if number <= lastVersion { versionsInOrder = false }
            lastVersion = number
        }
        frames.append(text)
    }
    func flush() { if !loop.inEventLoop { offLoop += 1 } }
    func subscriptionEnded(_ subscription: FeedSubscription) { ended.succeed() }
    func broadcastDelivered(publishedAt: NIODeadline) {}

    /// The frames, the writes made off the loop, and whether versions rose strictly, once the
    /// subscription ended.
    func waitForEnd() async throws -> ([String], Int, Bool) {
        try await ended.futureResult.get()
        return try await loop.submit { (self.frames, self.offLoop, self.versionsInOrder) }.get()
    }
}
