import Logging
import NIOConcurrencyHelpers
import NIOCore
import ParlorRules
import ParlorWire
import WebSocketCore

/// One client connection on `/ws`: decodes each request once, checks who is asking, runs it, answers,
/// and is the connection its subscriptions write to.
///
/// A session is a receiver, not a task: while its client is quiet it costs no task and no stack. A
/// request starts a short-lived task on the connection's event loop that handles it and then whatever
/// queued behind it, one at a time, in order — so a client sees its replies in the order it asked —
/// and ends when the queue is empty. Each subscription is an `AsyncStream` its feed yields into, read
/// on the same event loop by the loop's `FeedPump`, a task that writes into this connection
/// (`FeedOutput`) — no task waits on a quiet subscription either.
final class Session: WebSocketReceiver, FeedOutput, Sendable {
    /// A subscription's place in the session: reserved while the request that makes it is answered
    /// (so the limit counts it), then active once its feed writes to this connection.
    private enum Slot {
        case reserved
        case active(FeedSubscription)
    }

    private struct State {
        var user: UserID?
        var subscriptions: [Int: Slot] = [:]
        /// Requests received while one is being handled, in order.
        var inbox = CircularBuffer<WebSocketMessage>(initialCapacity: 0)
        /// A task is handling requests.
        var busy = false
        /// Reading from the client is paused because the inbox is full.
        var readsPaused = false
        /// The client broke the protocol after what is in the inbox: answer that, then let it fail.
        var violation = false
        /// The server is shutting down: every request is answered with SHUTTING_DOWN, and the connection
        /// closes once the client has been quiet for the quiet period.
        var shuttingDown = false
        /// When the client last sent a request.
        var lastHeard: NIODeadline
        var closed = false
        /// Signed in by a token in the upgrade request, on a server of accounts only: whether its user
        /// has an account is looked up before the first request is handled.
        var accountUnchecked = false
        /// When the JWT the connection signed in with expires (seconds since 1970); nil when it signed
        /// in otherwise. Each sign-in bumps the generation, so the timers of an earlier one do nothing.
        var expiresAt: Int64?
        var expiryGeneration = 0
    }

    let connection: WebSocketConnection
    private let services: ParlorServices
    /// The connection's event loop as a task executor: requests are served there.
    private let executor: EventLoopTaskExecutor
    /// The reader of this connection's subscription streams, shared by its event loop's connections.
    let pump: FeedPump
    private let state: NIOLockedValueBox<State>
    /// This connection's number among the open ones (`/admin` lists and disconnects by it).
    let number: Int
    /// When the connection opened.
    let openedAt: Instant

    init(connection: WebSocketConnection, services: ParlorServices, user: UserID?) {
        self.connection = connection
        self.services = services
        executor = EventLoopTaskExecutor.for(connection.eventLoop)
        pump = FeedPump.for(connection.eventLoop)
        state = NIOLockedValueBox(
            State(user: user, lastHeard: .now(), accountUnchecked: user != nil && services.configuration.auth.mode == .required))
        openedAt = services.clock.now
        number = services.connections.nextNumber()
        services.connections.insert(self, number: number)
        services.metrics.connections.increment()
        services.activity.connectionOpened()
        if let user { services.presence.connected(user) }
    }

    var user: UserID? { state.withLockedValue { $0.user } }

    // MARK: Receiving

    func received(_ message: WebSocketMessage) -> WebSocketReadDemand {
        let inboxLimit = services.configuration.listener.webSocket.inboundHighWaterMark
        let (start, demand) = state.withLockedValue { state -> (Bool, WebSocketReadDemand) in
            guard !state.closed else { return (false, .more) }
            state.lastHeard = .now()
            guard state.busy else {
                state.busy = true
                return (true, .more)
            }
            state.inbox.append(message)
            guard state.inbox.count >= inboxLimit else { return (false, .more) }
            state.readsPaused = true
            return (false, .pause)
        }
        if start {
            Task(executorPreference: executor) { await self.serve(message) }
        }
        return demand
    }

    func receivedProtocolViolation() {
        let proceed = state.withLockedValue { state -> Bool in
            guard state.busy else { return true }
            state.violation = true
            return false
        }
        if proceed { connection.proceedWithFailure() }
    }

    /// Handles `first` and then every request that queued meanwhile; returns when none is left.
    private func serve(_ first: WebSocketMessage) async {
        var message = first
        while true {
            let answer = await handle(message)
            if let reply = answer.reply {
                connection.send(WebSocketMessage(kind: .text, data: ByteBuffer(bytes: reply)))
            }
            if let grant = answer.attach { attach(grant) }
            let inboxLow = services.configuration.listener.webSocket.inboundLowWaterMark
            let (next, resumeReading, proceed, quiet) = state.withLockedValue {
                state -> (WebSocketMessage?, Bool, Bool, Bool) in
                if let next = state.inbox.popFirst() {
                    let resume = state.readsPaused && state.inbox.count <= inboxLow
                    if resume { state.readsPaused = false }
                    return (next, resume, false, false)
                }
                state.busy = false
                let violation = state.violation
                state.violation = false
                return (nil, false, violation, state.shuttingDown)
            }
            if resumeReading { connection.resumeReading() }
            if proceed { connection.proceedWithFailure() }
            if quiet { closeWhenQuiet() }
            guard let next else { return }
            message = next
        }
    }

    // MARK: Requests

    private struct Answer {
        var reply: [UInt8]?
        /// A subscription to start once the reply is out.
        var attach: FeedGrant?
    }

    private func handle(_ message: WebSocketMessage) async -> Answer {
        // Every frame counts against its user's and its address's rate (shared with their other
        // connections and HTTP requests), the ones that cannot be read too.
        let limited = services.requestLimiter.admit(user: self.user, address: connection.remoteAddress).isLimited
        guard message.kind == .text else {
            services.activity.answeredWithError(limited ? ErrorCode.rateLimited.rawValue : ErrorCode.badRequest.rawValue)
            return Answer(reply: Reply.error(
                id: .null, limited ? RequestLimiter.refusal : .badRequest("Parlor speaks JSON in text frames, not binary.")))
        }
        let request: (id: RequestID, name: OperationName, call: OperationTable.Call)
        switch services.operations.decode(message.data.readableBytesView) {
        case .success(let decoded):
            request = decoded
        case .failure(let badRequest):
            let refusal = limited ? RequestLimiter.refusal : badRequest.wireError
            services.metrics.recordOperation("invalid", outcome: refusal.code.rawValue, duration: .zero)
            services.activity.answeredWithError(refusal.code.rawValue)
            return Answer(reply: Reply.error(id: badRequest.id, refusal))
        }
        let started = NIODeadline.now()
        let name = request.name.rawValue
        if state.withLockedValue({ $0.accountUnchecked }) { await checkUpgradeAccount() }
        let (shuttingDown, user) = state.withLockedValue { ($0.shuttingDown, $0.user) }
        guard !limited else {
            services.metrics.recordOperation(name, outcome: ErrorCode.rateLimited.rawValue, duration: .zero)
            services.activity.answeredWithError(ErrorCode.rateLimited.rawValue)
            return Answer(reply: Reply.error(id: request.id, RequestLimiter.refusal))
        }
        if shuttingDown {
            return Answer(reply: Reply.error(id: request.id, WireError(.shuttingDown, "The server is restarting; reconnect in a moment.")))
        }
        // The account was deleted (here or on another node) while this connection was open: nothing it
        // still sends is done, whatever was queued before the close.
        if let user, services.signIn.isKnownDeleted(user) {
            disconnect(reason: PlayerData.closeReason)
            return Answer(reply: Reply.error(id: request.id, AccountSignIn.deleted))
        }
        var answer = Answer()
        do throws(WireError) {
            if request.call.access == .signedIn && user == nil { throw OperationTable.unauthenticated }
            switch try await request.call.run(OperationContext(user: user, session: self)) {
            case .reply(let result):
                answer.reply = Reply.result(id: request.id, result)
            case .subscribe(let grant, let reply):
                let fresh = try reserve(grant.topic)
                answer.attach = fresh ? grant : nil
                do throws(WireError) {
                    answer.reply = Reply.result(id: request.id, try reply(grant.topic))
                } catch {
                    if fresh { release(grant.topic) }
                    throw error
                }
            }
            services.metrics.recordOperation(name, outcome: "ok", duration: .now() - started)
        } catch {
            services.metrics.recordOperation(name, outcome: error.code.rawValue, duration: .now() - started)
            services.activity.answeredWithError(error.code.rawValue)
            answer.reply = Reply.error(id: request.id, error)
        }
        return answer
    }

    // MARK: Identity

    /// `hello`: sign in with an account's JWT, resume the user a valid token names, or sign in as a new
    /// anonymous user (`AccountSignIn`). A token that is altered or from another server is never
    /// accepted; the caller gets a new identity instead (or AUTH_REQUIRED, on a server of accounts only).
    func hello(_ args: HelloArguments) async throws(WireError) -> EncodedJSON {
        let signedIn = try await services.signIn.hello(args, current: self.user)
        let user = signedIn.user
        let previous = state.withLockedValue { state -> UserID? in
            let previous = state.user
            state.user = user
            return previous
        }
        if previous != user {
            if let previous { services.presence.disconnected(previous) }
            services.presence.connected(user)
        }
        watchExpiry(signedIn.expiresAt)
        return try EncodedJSON.encoding(
            HelloResult(
                userId: user, token: services.tokens.issue(for: user, at: services.clock.now), resumed: signedIn.resumed,
                node: services.node?.name))
    }

    /// `refreshAuth {jwt}`: a fresh JWT of the connection's own account; its expiry replaces the old one.
    func refreshAuth(_ args: RefreshAuthArguments) async throws(WireError) -> EncodedJSON {
        guard let current = user else { throw OperationTable.unauthenticated }
        let signedIn = try await services.signIn.signIn(jwt: args.jwt)
        guard signedIn.user == current, let expiresAt = signedIn.expiresAt else {
            throw WireError(.forbidden, "That jwt is another account's; send hello with it to sign in as that account.")
        }
        watchExpiry(expiresAt)
        return try EncodedJSON.encoding(RefreshAuthResult(userId: current, expiresAt: expiresAt))
    }

    /// From now on the connection's sign-in lasts until `expiresAt` (nil: for good). At that time the
    /// client is told (`tokenExpired`), and, without a `refreshAuth` within the grace, the connection
    /// closes — its seats, games and history stay, as with any connection that ends.
    private func watchExpiry(_ expiresAt: Int64?) {
        let generation = state.withLockedValue { state -> Int in
            state.expiryGeneration += 1
            state.expiresAt = expiresAt
            return state.expiryGeneration
        }
        guard let expiresAt else { return }
        services.timers.arm(at: Instant(millisecondsSinceEpoch: expiresAt * 1000)) { [weak self] in
            self?.tokenExpired(generation)
        }
    }

    private func tokenExpired(_ generation: Int) {
        let expiresAt = state.withLockedValue { state in
            !state.closed && state.expiryGeneration == generation ? state.expiresAt : nil
        }
        guard let expiresAt else { return }
        let grace = services.configuration.auth.expiryGraceSeconds
        if let data = try? EncodedJSON.encoding(TokenExpiredEvent(expiredAt: expiresAt, graceSeconds: grace)) {
            connection.send(PreparedMessage(json: EventMessage.connection(event: .tokenExpired, data: data)))
        }
        services.timers.arm(at: Instant(millisecondsSinceEpoch: (expiresAt + Int64(grace)) * 1000)) { [weak self] in
            self?.expiryGraceOver(generation)
        }
    }

    private func expiryGraceOver(_ generation: Int) {
        guard state.withLockedValue({ !$0.closed && $0.expiryGeneration == generation }) else { return }
        connection.close(code: .policyViolation, reason: "TOKEN_EXPIRED: the sign-in expired; sign in again with a fresh jwt")
    }

    /// A token in the upgrade request signed the connection in; on a server of accounts only, its user
    /// must have one, or the connection is not signed in after all.
    private func checkUpgradeAccount() async {
        guard let user else { return }
        let allowed = await services.signIn.mayResume(user)
        let dropped = state.withLockedValue { state -> Bool in
            state.accountUnchecked = false
            guard !allowed, state.user == user else { return false }
            state.user = nil
            return true
        }
        if dropped { services.presence.disconnected(user) }
    }

    // MARK: Subscriptions

    /// Reserves `topic` on this connection, within the per-connection limit. Observing a topic already
    /// observed keeps the existing subscription: false (nothing new to attach).
    private func reserve(_ topic: Int) throws(WireError) -> Bool {
        let limit = services.configuration.limits.maxSubscriptionsPerConnection
        let outcome = state.withLockedValue { state -> Bool? in
            if state.subscriptions[topic] != nil { return false }
            guard state.subscriptions.count < limit else { return nil }
            state.subscriptions[topic] = .reserved
            return true
        }
        guard let outcome else {
            throw WireError(.tooManySubscriptions, "A connection can hold at most \(limit) subscriptions.")
        }
        return outcome
    }

    private func release(_ topic: Int) {
        state.withLockedValue { state in
            if case .reserved = state.subscriptions[topic] { state.subscriptions.removeValue(forKey: topic) }
        }
    }

    /// After the reply that created it: the feed starts writing to this connection, current version first.
    private func attach(_ grant: FeedGrant) {
        let subscription = grant.feed.attach(grant, to: self)
        let open = state.withLockedValue { state -> Bool in
            guard !state.closed else { return false }
            guard case .reserved = state.subscriptions[grant.topic] else { return true }
            state.subscriptions[grant.topic] = .active(subscription)
            return true
        }
        if !open { subscription.cancel(with: []) }
    }

    /// Ends a subscription: its `end` event goes out before the reply.
    func unsubscribe(_ topic: Int) throws(WireError) {
        let subscription = state.withLockedValue { state -> FeedSubscription? in
            guard case .active(let subscription) = state.subscriptions[topic] else { return nil }
            state.subscriptions.removeValue(forKey: topic)
            return subscription
        }
        guard let subscription else {
            throw WireError(.subscriptionNotFound, "There is no subscription \(topic) on this connection.")
        }
        subscription.cancel(with: [PreparedMessage(json: EventMessage.end(subscription: topic))])
    }

    // MARK: Feed output

    var eventLoop: any EventLoop { connection.eventLoop }
    var isWritable: Bool { connection.isWritable }
    func write(_ frame: PreparedMessage) { connection.write(frame) }
    func flush() { connection.flush() }

    func subscriptionEnded(_ subscription: FeedSubscription) {
        state.withLockedValue { state in
            guard case .active(let current) = state.subscriptions[subscription.topic], current === subscription else { return }
            state.subscriptions.removeValue(forKey: subscription.topic)
        }
    }

    func broadcastDelivered(publishedAt: NIODeadline) {
        services.metrics.broadcastLatency.recordNanoseconds((NIODeadline.now() - publishedAt).nanoseconds)
    }

    func writabilityChanged(isWritable: Bool) {
        guard isWritable else { return }
        let active = state.withLockedValue { state in
            state.subscriptions.values.compactMap { slot -> FeedSubscription? in
                if case .active(let subscription) = slot { subscription } else { nil }
            }
        }
        var wrote = false
        for subscription in active where subscription.writable() { wrote = true }
        if wrote { connection.flush() }
    }

    // MARK: Shutdown and close

    /// On server shutdown: the request in flight (if any) is answered, later ones get SHUTTING_DOWN, and
    /// the connection closes once the client has been quiet for the quiet period — so a request that
    /// crosses the shutdown is answered rather than lost behind a close frame. A node of a cluster closes
    /// with 1012 ("service restart": reconnect, to another node), a server on its own with 1001.
    func serverShuttingDown() {
        let idle = state.withLockedValue { state -> Bool in
            state.shuttingDown = true
            return !state.busy
        }
        if idle { closeWhenQuiet() }
    }

    /// Closes (1001, or 1012 from a node of a cluster) once nothing has been received for the quiet
    /// period and no request is being handled; looks again later otherwise.
    private func closeWhenQuiet() {
        let quiet = services.configuration.shutdownQuietPeriod
        let wait = state.withLockedValue { state -> TimeAmount? in
            guard !state.closed, !state.busy else { return nil }
            let silence = NIODeadline.now() - state.lastHeard
            return silence >= quiet ? .zero : quiet - silence
        }
        guard let wait else { return }
        if wait == .zero {
            if services.node != nil {
                connection.close(code: .serviceRestart, reason: "service restart")
            } else {
                connection.close(code: .goingAway, reason: "server shutting down")
            }
        } else {
            connection.eventLoop.scheduleTask(in: wait) { self.closeWhenQuiet() }
        }
    }

    /// Subscriptions open on this connection (for `/admin`).
    var subscriptionCount: Int { state.withLockedValue { $0.subscriptions.count } }

    /// The operator disconnects this client: a close frame with policy violation (1008) and the
    /// operator's reason, which the client can show.
    func disconnect(reason: String) {
        connection.close(code: .policyViolation, reason: reason)
    }

    func closed(_ status: WebSocketCloseStatus) {
        let (active, user) = state.withLockedValue { state -> ([FeedSubscription], UserID?) in
            state.closed = true
            state.inbox.removeAll()
            let active = state.subscriptions.values.compactMap { slot -> FeedSubscription? in
                if case .active(let subscription) = slot { subscription } else { nil }
            }
            state.subscriptions.removeAll()
            return (active, state.user)
        }
        for subscription in active { subscription.cancel(with: []) }
        services.connections.remove(number)
        services.metrics.connections.decrement()
        services.activity.connectionClosed()
        if let user { services.presence.disconnected(user) }
    }
}
