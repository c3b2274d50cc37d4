import Logging
import NIOConcurrencyHelpers
import NIOCore
import ParlorRules
import ParlorWire
import WebSocketCore

/// One client connection on `/ws`: decodes each request once, checks who is asking, runs it, answers,
/// and forwards the events of its subscriptions.
///
/// Requests of one connection are handled one at a time, in order, so a client sees its replies in the
/// order it asked. Each subscription is forwarded by its own child task from the room's feed.
///
/// Memory per idle connection is dominated by task stacks: a Swift task keeps the stack slabs of the
/// deepest call it ever made. So the long-lived loop stays shallow and each request runs in a
/// short-lived child (`async let`) whose stack is freed when it returns, and a server shutdown is
/// noticed by a callback rather than by a task waiting for it.
final class Session: Sendable {
    private struct State {
        var user: UserID?
        var subscriptions: [Int: ActiveSubscription] = [:]
        /// A request is being handled.
        var busy = false
        /// The server is shutting down: close once the request in flight has been answered.
        var closeWhenIdle = false
    }

    private struct ActiveSubscription: Sendable {
        let subscription: FeedSubscription
        /// Fires when its forwarding task has sent its last frame.
        let finished: ShutdownSignal
    }

    private let webSocket: WebSocket
    private let services: ParlorServices
    private let state: NIOLockedValueBox<State>

    init(webSocket: WebSocket, services: ParlorServices, user: UserID?) {
        self.webSocket = webSocket
        self.services = services
        state = NIOLockedValueBox(State(user: user))
    }

    var user: UserID? { state.withLockedValue { $0.user } }

    func run() async {
        services.metrics.connections.increment()
        if let user { services.presence.connected(user) }
        let shutdownCallback = webSocket.shutdown.onFire { [self] in self.shutdownRequested() }
        defer {
            webSocket.shutdown.removeCallback(shutdownCallback)
            services.metrics.connections.decrement()
            if let user { services.presence.disconnected(user) }
        }
        await withDiscardingTaskGroup { group in
            do {
                for try await message in webSocket.inbound {
                    state.withLockedValue { $0.busy = true }
                    async let handled = handle(message)
                    let next = await handled
                    if let reply = next.reply { try await webSocket.send(WebSocketMessage(kind: .text, data: ByteBuffer(bytes: reply))) }
                    if let subscription = next.startForwarding {
                        group.addTask { await self.forward(subscription) }
                    }
                    let closeNow = state.withLockedValue { state -> Bool in
                        state.busy = false
                        return state.closeWhenIdle
                    }
                    if closeNow { webSocket.beginClose(code: .goingAway, reason: "server shutting down") }
                }
            } catch {
                // The connection failed mid-send; it is closing anyway.
            }
            group.cancelAll()
        }
    }

    /// On server shutdown: the request in flight (if any) is answered first, then the connection is
    /// closed with 1001.
    private func shutdownRequested() {
        let closeNow = state.withLockedValue { state -> Bool in
            state.closeWhenIdle = true
            return !state.busy
        }
        if closeNow { webSocket.beginClose(code: .goingAway, reason: "server shutting down") }
    }

    // MARK: Requests

    private struct Next {
        var reply: [UInt8]?
        var startForwarding: ActiveSubscription?
    }

    private func handle(_ message: WebSocketMessage) async -> Next {
        // Every frame counts against its user's and its address's rate (shared with their other
        // connections and HTTP requests), the ones that cannot be read too.
        let limited = services.requestLimiter.admit(user: user, address: webSocket.remoteAddress).isLimited
        guard message.kind == .text else {
            return Next(reply: Reply.error(
                id: .null, limited ? RequestLimiter.refusal : .badRequest("Parlor speaks JSON in text frames, not binary.")))
        }
        let request: (id: RequestID, name: OperationName, call: OperationTable.Call)
        switch services.operations.decode(message.data.readableBytesView) {
        case .success(let decoded):
            request = decoded
        case .failure(let badRequest):
            let refusal = limited ? RequestLimiter.refusal : badRequest.wireError
            services.metrics.recordOperation("invalid", outcome: refusal.code.rawValue, duration: .zero)
            return Next(reply: Reply.error(id: badRequest.id, refusal))
        }
        let started = NIODeadline.now()
        let name = request.name.rawValue
        guard !limited else {
            services.metrics.recordOperation(name, outcome: ErrorCode.rateLimited.rawValue, duration: .zero)
            return Next(reply: Reply.error(id: request.id, RequestLimiter.refusal))
        }
        if webSocket.shutdown.isFired {
            return Next(reply: Reply.error(id: request.id, WireError(.shuttingDown, "The server is restarting; reconnect in a moment.")))
        }
        var next = Next()
        do throws(WireError) {
            let user = self.user
            if request.call.access == .signedIn && user == nil { throw OperationTable.unauthenticated }
            switch try await request.call.run(OperationContext(user: user, session: self)) {
            case .reply(let result):
                next.reply = Reply.result(id: request.id, result)
            case .subscribe(let subscription, let reply):
                let active = try track(subscription)
                next.startForwarding = active.fresh ? active.subscription : nil
                next.reply = Reply.result(id: request.id, try reply(active.subscription.subscription.topic))
            }
            services.metrics.recordOperation(name, outcome: "ok", duration: .now() - started)
        } catch {
            services.metrics.recordOperation(name, outcome: error.code.rawValue, duration: .now() - started)
            next.reply = Reply.error(id: request.id, error)
        }
        return next
    }

    // MARK: Identity

    /// `hello`: resume the user a valid token names, or sign in as a new anonymous user. A token that
    /// is altered or from another server is never accepted; the caller gets a new identity instead.
    func hello(_ args: HelloArguments) throws(WireError) -> EncodedJSON {
        let tokens = services.tokens
        var resumed = false
        let user: UserID
        if let token = args.token, let known = tokens.verify(token) {
            user = known
            resumed = true
        } else if args.token == nil, let current = self.user {
            user = current
            resumed = true
        } else {
            var generator = SystemRandomNumberGenerator()
            user = UserID.random(using: &generator)
        }
        let previous = state.withLockedValue { state -> UserID? in
            let previous = state.user
            state.user = user
            return previous
        }
        if previous != user {
            if let previous { services.presence.disconnected(previous) }
            services.presence.connected(user)
        }
        return try EncodedJSON.encoding(HelloResult(userId: user, token: tokens.issue(for: user, at: services.clock.now), resumed: resumed))
    }

    // MARK: Subscriptions

    /// Holds `subscription` on this connection, within the per-connection limit. Observing a topic already
    /// observed keeps the existing subscription (not fresh) and drops the new one.
    private func track(_ subscription: FeedSubscription) throws(WireError) -> (subscription: ActiveSubscription, fresh: Bool) {
        let limit = services.configuration.limits.maxSubscriptionsPerConnection
        let outcome = state.withLockedValue { state -> Result<(ActiveSubscription, Bool), WireError> in
            if let existing = state.subscriptions[subscription.topic] { return .success((existing, false)) }
            guard state.subscriptions.count < limit else {
                return .failure(WireError(.tooManySubscriptions, "A connection can hold at most \(limit) subscriptions."))
            }
            let active = ActiveSubscription(subscription: subscription, finished: ShutdownSignal())
            state.subscriptions[subscription.topic] = active
            return .success((active, true))
        }
        switch outcome {
        case .success(let (active, fresh)):
            // Observing a topic already observed: the existing subscription carries on; drop the new one.
            if !fresh { subscription.cancel(with: []) }
            return (active, fresh)
        case .failure(let error):
            subscription.cancel(with: [])
            throw error
        }
    }

    /// Ends a subscription: its `end` event goes out before the reply.
    func unsubscribe(_ topic: Int) async throws(WireError) {
        guard let active = state.withLockedValue({ $0.subscriptions[topic] }) else {
            throw WireError(.subscriptionNotFound, "There is no subscription \(topic) on this connection.")
        }
        active.subscription.cancel(with: [PreparedMessage(json: EventMessage.end(subscription: topic))])
        await active.finished.wait()
    }

    private func forward(_ active: ActiveSubscription) async {
        defer {
            _ = state.withLockedValue { $0.subscriptions.removeValue(forKey: active.subscription.topic) }
            active.finished.fire()
        }
        for await item in active.subscription.stream {
            switch item {
            case .update(_, let frame, let privateFrame, let publishedAt):
                do {
                    try await webSocket.send(frame)
                    if let privateFrame { try await webSocket.send(privateFrame) }
                } catch {
                    return
                }
                services.metrics.broadcastLatency.recordNanoseconds((NIODeadline.now() - publishedAt).nanoseconds)
            case .ended(let frames):
                for frame in frames { try? await webSocket.send(frame) }
                return
            }
        }
    }
}
