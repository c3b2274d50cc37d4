import NIOConcurrencyHelpers
import NIOCore
import ParlorRules
import WebSocketCore

/// What a subscriber receives.
public enum FeedItem: Sendable {
    /// A new version: the shared public frame, and this subscriber's private frame if it has one.
    case update(version: Int, frame: PreparedMessage, privateFrame: PreparedMessage?, publishedAt: NIODeadline)
    /// The topic is over (or the subscriber unsubscribed): send these frames, then stop.
    case ended([PreparedMessage])
}

/// One version of a topic as its subscribers receive it: the public frame, encoded once and sent
/// unchanged to every subscriber, and each member's private frame for topics that keep secrets.
public struct FeedVersion: Sendable {
    public let version: Int
    public let frame: PreparedMessage
    public let privateFrames: [UserID: PreparedMessage]

    public init(version: Int, frame: PreparedMessage, privateFrames: [UserID: PreparedMessage] = [:]) {
        self.version = version
        self.frame = frame
        self.privateFrames = privateFrames
    }
}

/// One topic (a room, a lobby, the catalog) broadcast to many subscribers.
///
/// Each subscriber is an `AsyncStream` with a buffer of one that keeps the newest item: a slow
/// subscriber skips straight to the latest version, so neither its memory nor anyone else's latency
/// grows with its slowness. Every version carries its number, so a client can tell it skipped.
///
/// The topic number is the `sub` of every event frame, the same for all subscribers, which is what lets
/// a version be encoded into one frame that every connection sends unchanged.
public final class Feed: Sendable {
    public let topic: Int

    private struct Subscriber {
        let user: UserID?
        let continuation: AsyncStream<FeedItem>.Continuation
    }

    private struct State {
        var subscribers: [Int: Subscriber] = [:]
        var nextID = 0
        var latest: (version: FeedVersion, at: NIODeadline)?
        var endFrames: [PreparedMessage]?
    }

    private let state = NIOLockedValueBox(State())

    public init(topic: Int = TopicIDs.next()) {
        self.topic = topic
    }

    public var subscriberCount: Int { state.withLockedValue { $0.subscribers.count } }

    public var isEnded: Bool { state.withLockedValue { $0.endFrames != nil } }

    /// Subscribes `user` (nil for spectators without a session). The current version, if any, is the
    /// first item. Returns nil when the topic has ended.
    public func subscribe(user: UserID?) -> FeedSubscription? {
        let (stream, continuation) = AsyncStream.makeStream(of: FeedItem.self, bufferingPolicy: .bufferingNewest(1))
        let id: Int? = state.withLockedValue { state in
            guard state.endFrames == nil else { return nil }
            state.nextID += 1
            let id = state.nextID
            state.subscribers[id] = Subscriber(user: user, continuation: continuation)
            if let (latest, at) = state.latest {
                continuation.yield(
                    .update(
                        version: latest.version, frame: latest.frame,
                        privateFrame: user.flatMap { latest.privateFrames[$0] }, publishedAt: at))
            }
            return id
        }
        guard let id else {
            continuation.finish()
            return nil
        }
        continuation.onTermination = { [weak self] _ in
            self?.state.withLockedValue { _ = $0.subscribers.removeValue(forKey: id) }
        }
        return FeedSubscription(topic: topic, id: id, stream: stream, feed: self)
    }

    /// Publishes a version to every subscriber.
    public func publish(_ version: FeedVersion) {
        let now = NIODeadline.now()
        state.withLockedValue { state in
            guard state.endFrames == nil else { return }
            if let (latest, _) = state.latest, latest.version >= version.version { return }
            state.latest = (version, now)
            for subscriber in state.subscribers.values {
                subscriber.continuation.yield(
                    .update(
                        version: version.version, frame: version.frame,
                        privateFrame: subscriber.user.flatMap { version.privateFrames[$0] }, publishedAt: now))
            }
        }
    }

    /// Ends the topic: every subscriber receives `frames` as its last item.
    public func end(with frames: [PreparedMessage]) {
        let subscribers = state.withLockedValue { state -> [Subscriber] in
            guard state.endFrames == nil else { return [] }
            state.endFrames = frames
            let all = Array(state.subscribers.values)
            state.subscribers.removeAll()
            return all
        }
        for subscriber in subscribers {
            subscriber.continuation.yield(.ended(frames))
            subscriber.continuation.finish()
        }
    }

    /// Ends one subscription (unsubscribe): it receives `frames` as its last item.
    func cancel(subscriber id: Int, with frames: [PreparedMessage]) -> Bool {
        guard let subscriber = state.withLockedValue({ $0.subscribers.removeValue(forKey: id) }) else { return false }
        subscriber.continuation.yield(.ended(frames))
        subscriber.continuation.finish()
        return true
    }

    /// Ends every subscription of `user` (who left a lobby): each receives `frames` as its last item.
    func cancel(user: UserID, with frames: [PreparedMessage]) {
        let ended = state.withLockedValue { state -> [Subscriber] in
            let ids = state.subscribers.filter { $0.value.user == user }.map(\.key)
            return ids.compactMap { state.subscribers.removeValue(forKey: $0) }
        }
        for subscriber in ended {
            subscriber.continuation.yield(.ended(frames))
            subscriber.continuation.finish()
        }
    }
}

/// One subscriber's end of a feed.
public struct FeedSubscription: Sendable {
    /// The `sub` of its event frames.
    public let topic: Int
    let id: Int
    public let stream: AsyncStream<FeedItem>
    let feed: Feed

    /// Stops the subscription: `frames` (the `end` event) are its last item. False if it had ended.
    @discardableResult
    public func cancel(with frames: [PreparedMessage]) -> Bool {
        feed.cancel(subscriber: id, with: frames)
    }
}

/// Process-wide unique topic numbers.
public enum TopicIDs {
    private static let counter = NIOLockedValueBox(0)

    public static func next() -> Int {
        counter.withLockedValue { value in
            value += 1
            return value
        }
    }
}

extension PreparedMessage {
    /// A text frame from JSON bytes already encoded.
    public convenience init(json bytes: [UInt8]) {
        self.init(WebSocketMessage(kind: .text, data: ByteBuffer(bytes: bytes)))
    }
}
