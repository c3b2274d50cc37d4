import NIOConcurrencyHelpers
import NIOCore
import ParlorRules
import WebSocketCore

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

/// What a topic says beside its versions that is not a version — who of a game's players is connected,
/// which node of a cluster serves the game (`FeedAside`): of each, the newest replaces the last, new
/// subscribers get it right after the current version, and a slow reader keeps only the newest.
/// `sequence` orders them, as `version` orders versions.
public struct FeedPresence: Sendable {
    public let sequence: Int
    public let frame: PreparedMessage

    public init(sequence: Int, frame: PreparedMessage) {
        self.sequence = sequence
        self.frame = frame
    }
}

/// One topic (a game, or a feed a game registers) broadcast to many subscribers, each of which is an
/// `AsyncStream` read on its connection's event loop.
///
/// A published version costs one hop per event loop, not one per subscriber: the feed keeps its
/// subscriptions grouped by their connection's loop, and hands each loop the version and that loop's
/// subscriptions in one `execute`; there it is yielded into each subscription's stream, and the loop's
/// `FeedPump` — a task whose executor is that same loop (SE-0417) — reads every stream that has
/// something, writes the shared frame into the connection and flushes it. The version never leaves the
/// thread that owns the socket, and a stream's buffer is only the hand-off between the loop's jobs.
///
/// Conflating, per subscriber: a connection that is not taking what we send (over its outbound
/// high-water mark) keeps at most one pending version — the newest — and gets it when it drains, so a
/// slow reader skips to the latest version and neither its memory nor anyone else's latency grows with
/// its slowness. Every version carries its number, so a client can tell it skipped.
///
/// The topic number is the `sub` of every event frame, the same for all subscribers, which is what lets
/// a version be encoded into one frame that every connection sends unchanged.
public final class Feed: Sendable {
    public let topic: Int

    /// The subscriptions whose connections run on one event loop.
    private struct LoopGroup {
        let loop: any EventLoop
        var subscriptions: ContiguousArray<FeedSubscription> = []
    }

    private struct State {
        var groups: [LoopGroup] = []
        var count = 0
        var latest: (version: FeedVersion, at: NIODeadline)?
        var presence: FeedPresence?
        var node: FeedPresence?
        var access: FeedPresence?
        var endFrames: [PreparedMessage]?

        subscript(_ aside: FeedAside) -> FeedPresence? {
            get {
                switch aside {
                case .presence: presence
                case .node: node
                case .access: access
                }
            }
            set {
                switch aside {
                case .presence: presence = newValue
                case .node: node = newValue
                case .access: access = newValue
                }
            }
        }
    }

    private let state = NIOLockedValueBox(State())

    public init(topic: Int = TopicIDs.next()) {
        self.topic = topic
    }

    public var subscriberCount: Int { state.withLockedValue { $0.count } }

    public var isEnded: Bool { state.withLockedValue { $0.endFrames != nil } }

    /// Permission for `user` (nil for spectators without a session) to subscribe, or nil when the topic
    /// has ended. Nothing is sent until the grant is attached to a connection.
    public func grant(user: UserID?) -> FeedGrant? {
        state.withLockedValue { $0.endFrames == nil } ? FeedGrant(feed: self, user: user) : nil
    }

    /// Starts sending to `output`: the current version first (unless the topic ended meanwhile, in
    /// which case its end frames), then every new one.
    func attach(_ grant: FeedGrant, to output: any FeedOutput) -> FeedSubscription {
        let subscription = FeedSubscription(topic: topic, user: grant.user, feed: self, output: output)
        if output.eventLoop.inEventLoop {
            start(subscription)
        } else {
            output.eventLoop.execute { self.start(subscription) }
        }
        return subscription
    }

    /// On the subscription's loop: joins the loop's group and sends what the topic has now. A version
    /// published after the join is handed to this loop after this call, so versions arrive in order.
    private func start(_ subscription: FeedSubscription) {
        guard !subscription.hasEnded else { return }
        let loop = subscription.output.eventLoop
        let joined = state.withLockedValue { state -> Result<(FeedVersion?, FeedPresence?, FeedPresence?, FeedPresence?), EndFrames> in
            if let endFrames = state.endFrames { return .failure(EndFrames(frames: endFrames)) }
            let index: Int
            if let found = state.groups.firstIndex(where: { $0.loop === loop }) {
                index = found
            } else {
                state.groups.append(LoopGroup(loop: loop))
                index = state.groups.count - 1
            }
            subscription.slot = state.groups[index].subscriptions.count
            state.groups[index].subscriptions.append(subscription)
            state.count += 1
            return .success((state.latest?.version, state.presence, state.node, state.access))
        }
        switch joined {
        case .success(let (latest, presence, node, access)):
            subscription.yield(.snapshot(latest, presence: presence, node: node, access: access))
        case .failure(let end):
            subscription.yieldEnd(end.frames)
        }
    }

    /// Publishes a version to every subscriber.
    public func publish(_ version: FeedVersion) {
        let now = NIODeadline.now()
        let handOff = state.withLockedValue { state -> [LoopGroup] in
            guard state.endFrames == nil else { return [] }
            if let (latest, _) = state.latest, latest.version >= version.version { return [] }
            state.latest = (version, now)
            return state.groups
        }
        for group in handOff where !group.subscriptions.isEmpty {
            let subscriptions = group.subscriptions
            group.loop.execute { FeedSubscription.yield(version, publishedAt: now, to: subscriptions) }
        }
    }

    /// Publishes what the topic says beside its versions to every subscriber, unless a newer one of the
    /// same kind was published already. Not a broadcast of a version: it does not reach
    /// `broadcastDelivered`.
    public func publish(_ presence: FeedPresence, as aside: FeedAside = .presence) {
        let handOff = state.withLockedValue { state -> [LoopGroup] in
            guard state.endFrames == nil else { return [] }
            if let current = state[aside], current.sequence >= presence.sequence { return [] }
            state[aside] = presence
            return state.groups
        }
        for group in handOff where !group.subscriptions.isEmpty {
            let subscriptions = group.subscriptions
            group.loop.execute {
                for subscription in subscriptions { subscription.yield(.aside(presence, aside)) }
            }
        }
    }

    /// Ends the topic: every subscriber receives `frames` as its last frames.
    public func end(with frames: [PreparedMessage]) {
        let groups = state.withLockedValue { state -> [LoopGroup] in
            guard state.endFrames == nil else { return [] }
            state.endFrames = frames
            state.count = 0
            defer { state.groups = [] }
            return state.groups
        }
        for group in groups where !group.subscriptions.isEmpty {
            let subscriptions = group.subscriptions
            group.loop.execute {
                for subscription in subscriptions { subscription.yieldEnd(frames) }
            }
        }
    }

    /// Ends one subscription (unsubscribe): unless it has ended already, it receives `frames` as its
    /// last frames. Done on the subscription's loop, where it started, so a subscription cancelled before
    /// it started never starts.
    func cancel(_ subscription: FeedSubscription, with frames: [PreparedMessage]) {
        subscription.onLoop { subscription in
            _ = self.state.withLockedValue { self.remove(subscription, from: &$0) }
            subscription.finish(with: frames)
        }
    }

    /// Ends every subscription of `user` (who left a game with secrets): each receives `frames` as its
    /// last frames.
    func cancel(user: UserID, with frames: [PreparedMessage]) {
        let ended = state.withLockedValue { state -> [FeedSubscription] in
            let mine = state.groups.flatMap { $0.subscriptions.filter { $0.user == user } }
            return mine.filter { remove($0, from: &state) }
        }
        for subscription in ended { subscription.onLoop { $0.finish(with: frames) } }
    }

    /// Takes `subscription` out of its group in O(1) (the group's last takes its slot). False if it is
    /// not in the feed (not started yet, or already removed).
    private func remove(_ subscription: FeedSubscription, from state: inout State) -> Bool {
        let loop = subscription.output.eventLoop
        guard let group = state.groups.firstIndex(where: { $0.loop === loop }) else { return false }
        let slot = subscription.slot
        guard slot >= 0, slot < state.groups[group].subscriptions.count,
            state.groups[group].subscriptions[slot] === subscription
        else { return false }
        let last = state.groups[group].subscriptions.removeLast()
        if last !== subscription {
            state.groups[group].subscriptions[slot] = last
            last.slot = slot
        }
        subscription.slot = -1
        state.count -= 1
        return true
    }

    private struct EndFrames: Error {
        let frames: [PreparedMessage]
    }
}

/// The kinds of what a feed says beside its versions; each subscriber keeps the newest of each.
public enum FeedAside: Sendable {
    /// Who of a game's players is connected (`presence`).
    case presence
    /// Which node of a cluster serves the game (`node`).
    case node
    /// Who may join and watch the game (`access`): its settings and its host.
    case access
}

/// Permission to subscribe to a feed, not yet attached to a connection: operations hand it to the
/// session, which answers the request first and then attaches it, so the reply precedes the first event.
public struct FeedGrant: Sendable {
    let feed: Feed
    let user: UserID?

    /// The `sub` of the subscription's events.
    public var topic: Int { feed.topic }
}

/// A connection as feeds see it (a session on `/ws`).
protocol FeedOutput: AnyObject, Sendable {
    var eventLoop: any EventLoop { get }
    /// The pump of `eventLoop`, which reads this output's subscriptions' streams.
    var pump: FeedPump { get }
    /// False while the peer is not taking what we send.
    var isWritable: Bool { get }
    func write(_ frame: PreparedMessage)
    func flush()
    /// A subscription of this output has sent its last frames (its topic ended, it was revoked or
    /// cancelled). Called on the event loop.
    func subscriptionEnded(_ subscription: FeedSubscription)
    /// A version published at `publishedAt` has been written to the sockets of this event loop's
    /// subscribers that were taking it (a subscriber's first snapshot, sent as it joins, is not reported).
    func broadcastDelivered(publishedAt: NIODeadline)
}

extension FeedOutput {
    var pump: FeedPump { .for(eventLoop) }
}

/// What a subscription's stream carries, in the order its feed said it.
enum FeedEvent: Sendable {
    /// What the topic had when the subscription joined: its current version, presence, node and access.
    case snapshot(FeedVersion?, presence: FeedPresence?, node: FeedPresence?, access: FeedPresence?)
    /// A version published since; `delivery` is shared by the subscribers of its event loop.
    case version(FeedVersion, FeedDelivery)
    /// A presence, node or access published since.
    case aside(FeedPresence, FeedAside)
    /// The topic ended: these are the subscription's last frames.
    case end([PreparedMessage])
}

/// One published version on one event loop, shared by that loop's subscribers: the last of them to
/// handle it reports the broadcast (once, and only if one of them wrote it), after their flushes.
///
/// `@unchecked Sendable`: made on its event loop and touched only there.
final class FeedDelivery: @unchecked Sendable {
    private let publishedAt: NIODeadline
    private var remaining: Int
    private var wrote = false

    fileprivate init(publishedAt: NIODeadline, subscribers: Int) {
        self.publishedAt = publishedAt
        remaining = subscribers
    }

    fileprivate func handled(by output: any FeedOutput, wrote: Bool) {
        self.wrote = self.wrote || wrote
        remaining -= 1
        guard remaining == 0, self.wrote else { return }
        // A flush runs once the work already queued on the loop has run (the connections' flush batch);
        // a job queued after the last subscriber's flush runs once they have written to the sockets,
        // which is what the broadcast histogram measures. One job per version per loop.
        let publishedAt = publishedAt
        output.eventLoop.execute { output.broadcastDelivered(publishedAt: publishedAt) }
    }
}

/// The reader of every subscription stream of one event loop: a task whose executor is the loop
/// (SE-0417 executor preference), started when a stream of the loop has something to read and ended
/// when none has.
///
/// Why one reader per loop and not a task per subscription or per connection: a suspended task waiting
/// on its stream costs memory for as long as the subscription lives (2.8 KiB more per idle observing
/// connection, measured: docs/BENCHMARKS.md, "Fan-out II"), and waking one task per subscriber per
/// version costs a resumption each. The pump holds no stream between versions, and one wake-up reads
/// every stream a hand-off filled. Each stream is still read in order by one reader at a time, which
/// is all an `AsyncStream` asks of its consumer.
///
/// `@unchecked Sendable`: `ready`, `reading` and `isRunning` are touched only on the loop.
final class FeedPump: @unchecked Sendable {
    let eventLoop: any EventLoop
    private let executor: EventLoopTaskExecutor
    /// Subscriptions whose streams hold events nobody has read yet, in the order they got their first.
    private var ready: [FeedSubscription] = []
    /// The batch being read (kept to reuse its storage).
    private var reading: [FeedSubscription] = []
    private var isRunning = false

    private static let pumps = NIOLockedValueBox<[ObjectIdentifier: FeedPump]>([:])

    private init(_ eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
        executor = EventLoopTaskExecutor.for(eventLoop)
    }

    /// The pump of `eventLoop`, made once per loop (a connection keeps a reference to its loop's).
    static func `for`(_ eventLoop: any EventLoop) -> FeedPump {
        pumps.withLockedValue { pumps in
            let key = ObjectIdentifier(eventLoop)
            if let pump = pumps[key] { return pump }
            let pump = FeedPump(eventLoop)
            pumps[key] = pump
            return pump
        }
    }

    /// On the loop: `subscription`'s stream got an event while it had none unread.
    fileprivate func schedule(_ subscription: FeedSubscription) {
        ready.append(subscription)
        guard !isRunning else { return }
        isRunning = true
        Task(executorPreference: executor) { await self.run() }
    }

    /// Reads every ready stream until none is; a stream that fills again meanwhile is read again.
    private func run() async {
        while !ready.isEmpty {
            swap(&ready, &reading)
            for subscription in reading { await subscription.read() }
            reading.removeAll(keepingCapacity: true)
        }
        isRunning = false
    }

    /// On the loop: whether no stream is waiting to be read (tests: nothing is left behind).
    var isIdle: Bool { !isRunning && ready.isEmpty }
}

/// One subscriber of a feed: an `AsyncStream` of what the feed says, read on its connection's event
/// loop by the loop's `FeedPump`, and what it has sent.
///
/// Everything is yielded on the connection's event loop (the feed hands each loop its subscribers) and
/// read there, so a version never changes threads between the feed's hand-off and the socket. The
/// stream's buffer is only that hand-off: it holds the events the loop's jobs yielded before the pump's
/// turn on the same loop — one per hand-off queued on the loop meanwhile, each a reference to the
/// shared frame — so it is not bounded by a count but by the loop itself, and a count would have to
/// drop one: a dropped event is a skipped version for a reader that keeps up. Slowness of the peer is
/// not the stream's business: a version that finds the connection over its high-water mark waits as
/// the one pending version (the newest), as do presence, node and access, until the connection drains
/// (`writable()`).
///
/// `@unchecked Sendable`: `slot` is read and written only under its feed's lock; everything else that
/// changes is touched only on its output's event loop.
final class FeedSubscription: @unchecked Sendable {
    /// The `sub` of its event frames.
    let topic: Int
    let user: UserID?
    let feed: Feed
    let output: any FeedOutput
    /// Its index in its feed's group (under the feed's lock); -1 when not in the feed.
    fileprivate var slot = -1
    private let continuation: AsyncStream<FeedEvent>.Continuation
    // On the output's event loop:
    /// The stream's reading end, used by the loop's pump.
    private var events: AsyncStream<FeedEvent>.Iterator
    /// Events yielded into the stream and not read yet.
    private var unread = 0
    private var isFinished = false
    private var isStarted = false
    private var isEnded = false
    private var lastVersion = Int.min
    /// The newest version not yet sent because the connection was not writable.
    private var pending: FeedVersion?
    /// The presence, node and access frames sent, and the newest of each not yet sent because the
    /// connection was not writable.
    private var presence = AsideSlot()
    private var node = AsideSlot()
    private var access = AsideSlot()

    private struct AsideSlot {
        var last = Int.min
        var pending: FeedPresence?
    }

    fileprivate init(topic: Int, user: UserID?, feed: Feed, output: any FeedOutput) {
        self.topic = topic
        self.user = user
        self.feed = feed
        self.output = output
        let (stream, continuation) = AsyncStream.makeStream(of: FeedEvent.self, bufferingPolicy: .unbounded)
        self.continuation = continuation
        events = stream.makeAsyncIterator()
    }

    /// On the event loop, by the pump: reads what the stream holds and handles it, in order.
    fileprivate func read() async {
        while unread > 0 {
            // Never waits: `unread` events are in the stream's buffer (or it finished, and says so).
            guard let event = await events.next() else {
                unread = 0
                return
            }
            unread -= 1
            handle(event)
        }
    }

    /// On the event loop: the stream has finished and every event in it has been read — nothing of
    /// this subscription is left with the pump. An ended subscription that is not drained once its
    /// loop has run would be a leak.
    var isDrained: Bool { isFinished && unread == 0 }

    /// Stops the subscription: `frames` (the `end` event) are its last frames, unless it had ended.
    func cancel(with frames: [PreparedMessage]) {
        feed.cancel(self, with: frames)
    }

    /// On the event loop: whether its last frames have been sent.
    fileprivate var hasEnded: Bool { isEnded }

    fileprivate func onLoop(_ body: @escaping @Sendable (FeedSubscription) -> Void) {
        if output.eventLoop.inEventLoop {
            body(self)
        } else {
            output.eventLoop.execute { body(self) }
        }
    }

    // MARK: On the event loop

    /// Hands `event` to the stream, and the stream to the loop's pump if it had nothing unread.
    fileprivate func yield(_ event: FeedEvent) {
        // The stream is unbounded: it only ever enqueues, or refuses once finished.
        switch continuation.yield(event) {
        case .enqueued:
            unread += 1
            if unread == 1 { output.pump.schedule(self) }
        default:
            // Terminated (the subscription has ended; the stream never drops, being unbounded): a
            // version still counts as handled for its broadcast.
            if case .version(_, let delivery) = event { delivery.handled(by: output, wrote: false) }
        }
    }

    /// One version for every subscription of one event loop.
    fileprivate static func yield(
        _ version: FeedVersion, publishedAt: NIODeadline, to subscriptions: ContiguousArray<FeedSubscription>
    ) {
        let delivery = FeedDelivery(publishedAt: publishedAt, subscribers: subscriptions.count)
        for subscription in subscriptions { subscription.yield(.version(version, delivery)) }
    }

    /// The topic ended: `frames` follow whatever the stream still holds, and the stream finishes.
    fileprivate func yieldEnd(_ frames: [PreparedMessage]) {
        yield(.end(frames))
        finishStream()
    }

    private func finishStream() {
        isFinished = true
        continuation.finish()
    }

    /// What the pump does with each event it reads: writes it into the connection and flushes.
    private func handle(_ event: FeedEvent) {
        switch event {
        case .snapshot(let latest, let presence, let node, let access):
            // Joined the feed: the current version, then the current presence, node and access, in one flush.
            isStarted = true
            let wroteVersion = latest.map(offer) ?? false
            let wrotePresence = presence.map { offer($0, as: .presence) } ?? false
            let wroteNode = node.map { offer($0, as: .node) } ?? false
            let wroteAccess = access.map { offer($0, as: .access) } ?? false
            if wroteVersion || wrotePresence || wroteNode || wroteAccess { output.flush() }
        case .version(let version, let delivery):
            let wrote = offer(version)
            if wrote { output.flush() }
            delivery.handled(by: output, wrote: wrote)
        case .aside(let presence, let aside):
            if offer(presence, as: aside) { output.flush() }
        case .end(let frames):
            finish(with: frames)
        }
    }

    /// Writes `presence` (without flushing) if it is newer than what this subscriber has of its kind,
    /// or keeps it as the pending one while the connection is not writable. True if something was
    /// written.
    private func offer(_ presence: FeedPresence, as aside: FeedAside) -> Bool {
        guard isStarted, !isEnded else { return false }
        var slot: AsideSlot
        switch aside {
        case .presence: slot = self.presence
        case .node: slot = node
        case .access: slot = access
        }
        defer {
            switch aside {
            case .presence: self.presence = slot
            case .node: node = slot
            case .access: access = slot
            }
        }
        guard presence.sequence > slot.last else { return false }
        guard output.isWritable else {
            if presence.sequence > slot.pending?.sequence ?? Int.min { slot.pending = presence }
            return false
        }
        slot.last = presence.sequence
        output.write(presence.frame)
        return true
    }

    /// Writes `version` (without flushing) if it is newer than what this subscriber has, or keeps it as
    /// the pending one while the connection is not writable. True if something was written.
    private func offer(_ version: FeedVersion) -> Bool {
        guard isStarted, !isEnded, version.version > lastVersion else { return false }
        guard output.isWritable else {
            if version.version > pending?.version ?? Int.min { pending = version }
            return false
        }
        write(version)
        return true
    }

    private func write(_ version: FeedVersion) {
        lastVersion = version.version
        output.write(version.frame)
        if !version.privateFrames.isEmpty, let user, let privateFrame = version.privateFrames[user] {
            output.write(privateFrame)
        }
    }

    /// The connection drained: the pending version and then the pending presence, node and access, if
    /// any, go out now.
    /// Returns whether it wrote.
    func writable() -> Bool {
        guard output.isWritable else { return false }
        var wrote = false
        if let pending {
            self.pending = nil
            wrote = offer(pending)
        }
        if let pendingPresence = presence.pending {
            presence.pending = nil
            wrote = offer(pendingPresence, as: .presence) || wrote
        }
        if let pendingNode = node.pending {
            node.pending = nil
            wrote = offer(pendingNode, as: .node) || wrote
        }
        if let pendingAccess = access.pending {
            access.pending = nil
            wrote = offer(pendingAccess, as: .access) || wrote
        }
        return wrote
    }

    /// Sends `frames` as the last frames (whatever was pending is superseded: the topic is over for
    /// this subscriber), tells the output, and finishes the stream (the pump reads what it still holds).
    fileprivate func finish(with frames: [PreparedMessage]) {
        guard !isEnded else { return }
        isEnded = true
        pending = nil
        presence.pending = nil
        node.pending = nil
        access.pending = nil
        for frame in frames { output.write(frame) }
        if !frames.isEmpty { output.flush() }
        output.subscriptionEnded(self)
        finishStream()
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
