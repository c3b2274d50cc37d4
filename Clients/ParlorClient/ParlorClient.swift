import Logging
import NIOConcurrencyHelpers
import ParlorRules
import ParlorWire
import WebSocketCore

/// A connection to a Parlor server that stays up: requests with typed results and typed errors,
/// subscriptions as `AsyncStream`s, and automatic reconnection that resumes the same user and the same
/// subscriptions.
///
/// ```swift
/// let client = ParlorClient(configuration: configuration)
/// try await withThrowingTaskGroup(of: Void.self) { group in
///     group.addTask { try await client.run() }
///     let seat = try await client.joinRoom(code: "A1B2C3", playerName: "Bo")
///     for await room in try await client.observeRoom(code: "A1B2C3") { … }
///     await client.close()
/// }
/// ```
///
/// `run()` owns the connection: it connects, signs in with `hello` (presenting the stored token, so the
/// user and their seats come back), re-subscribes, reads, and when the connection drops does it all
/// again after a backoff. Meanwhile requests made from any task wait for the connection (within the
/// request timeout), and the streams callers hold keep flowing: a server restart is a
/// `.reconnecting` state and nothing else.
public final class ParlorClient: Sendable {
    public let configuration: ParlorClientConfiguration
    let state: NIOLockedValueBox<ClientState>
    let states = StateBroadcast<ConnectionState>(.connecting)
    let presences = StateBroadcast<PresenceView?>(nil)
    let accesses = StateBroadcast<GameAccessView?>(nil)
    let closedReasons = NIOLockedValueBox<String?>(nil)
    var logger: Logger { configuration.logger }

    public init(configuration: ParlorClientConfiguration = ParlorClientConfiguration()) {
        self.configuration = configuration
        state = NIOLockedValueBox(ClientState(maxPendingRequests: configuration.maxPendingRequests))
    }

    public var server: ServerAddress { configuration.server }

    /// The state right now.
    public var connectionState: ConnectionState { states.current }

    /// The current state, then every change, until the client closes.
    public func connectionStates() -> AsyncStream<ConnectionState> { states.stream() }

    /// Who of the players is connected, as the `presence` events of the games this client follows say:
    /// the newest one (nil before any), then every new one, until the client closes. A client that
    /// follows several games gets all of theirs; each names its players.
    public func presenceUpdates() -> AsyncStream<PresenceView?> { presences.stream() }

    /// Who may join and watch a game this client follows, as its `access` events say (private, locked,
    /// who may watch, its host): the newest (nil before any — a game whose settings were always the
    /// defaults sends none), then every change, until the client closes.
    public func accessUpdates() -> AsyncStream<GameAccessView?> { accesses.stream() }

    /// Why the server's operator closed a game this client followed (the newest such reason), if one did.
    public var closedReason: String? { closedReasons.withLockedValue { $0 } }

    /// The signed-in user, once the first `hello` has been answered.
    public var userId: UserID? { state.withLockedValue { $0.userId } }

    /// Runs the connection until ``close()`` is called or the task is cancelled (then it returns), or
    /// until `reconnect.maxAttempts` attempts in a row have failed (then it throws `.notConnected`).
    /// Call it once, in a task of its own.
    public func run() async throws(ParlorClientError) {
        let started = state.withLockedValue { state -> Bool in
            guard case .idle = state.phase, !state.closeRequested else { return false }
            state.phase = .connecting
            return true
        }
        guard started else {
            throw .invalidConfiguration("A ParlorClient runs once; this one has already run or been closed")
        }
        let outcome: Result<Void, ParlorClientError> = await withTaskCancellationHandler {
            await connectionLoop()
        } onCancel: {
            self.requestClose()
        }
        switch outcome {
        case .success:
            finishClosed(reason: nil)
        case .failure(let error):
            if case .notConnected(let reason) = error { finishClosed(reason: reason) } else { finishClosed(reason: error.description) }
            throw error
        }
    }

    /// Closes the connection politely and stops `run()`. Requests still waiting fail, and every
    /// subscription stream ends.
    public func close() async {
        let socket = requestClose()
        await socket?.close(code: .normalClosure)
    }

    // MARK: - The connection loop

    private struct ServeOutcome: Sendable {
        var signedIn: Bool
        var reason: String
        /// The connection was closed to move to another node: connect again at once.
        var moved = false
        /// The server is restarting (1012): reconnect soon, to another node.
        var restarting = false
    }

    private var isCloseRequested: Bool { state.withLockedValue { $0.closeRequested } }

    private func connectionLoop() async -> Result<Void, ParlorClientError> {
        let policy = configuration.reconnect
        var attempt = 0
        states.send(.connecting)
        while !isCloseRequested && !Task.isCancelled {
            let (generation, asking) = state.withLockedValue { state -> (Int, String?) in
                state.generation += 1
                state.phase = .connecting
                state.moving = nil
                return (state.generation, state.routing.connecting())
            }
            let outcome: ServeOutcome
            do {
                outcome = try await WebSocketClient.connect(
                    to: NodeRoute.url(server.url, asking: asking), configuration: configuration.webSocket
                ) { socket in
                    await self.serve(Connection(socket: socket, generation: generation))
                }
            } catch {
                outcome = ServeOutcome(signedIn: false, reason: ConnectionFailure.describe(error, server: server))
            }
            connectionEnded(generation: generation, reason: outcome.reason)
            if isCloseRequested || Task.isCancelled { break }
            if outcome.moved {
                attempt = 0
                continue
            }
            logger.info("Connection lost", metadata: ["reason": "\(outcome.reason)", "server": "\(server)"])
            if outcome.restarting {
                // The node is going away and every client it had is reconnecting: a short random wait
                // spreads them, and the node they land on serves them at once.
                state.withLockedValue { $0.routing.restarting() }
                attempt = 0
                states.send(.reconnecting(attempt: 1, reason: outcome.reason))
                await pause(.milliseconds(Int64(configuration.random() * 250)))
                continue
            }
            attempt = outcome.signedIn ? 1 : attempt + 1
            if let maxAttempts = policy.maxAttempts, attempt > maxAttempts {
                return .failure(.notConnected(reason: outcome.reason))
            }
            states.send(.reconnecting(attempt: attempt, reason: outcome.reason))
            await pause(policy.delay(forAttempt: attempt, random: configuration.random()))
        }
        return .success(())
    }

    /// Signs in on a fresh connection, then reads it until it ends.
    private func serve(_ connection: Connection) async -> ServeOutcome {
        let proceed = state.withLockedValue { state -> Bool in
            guard !state.closeRequested else { return false }
            state.phase = .signingIn(connection)
            return true
        }
        guard proceed else { return ServeOutcome(signedIn: false, reason: "the client was closed") }
        return await withTaskGroup(of: String.self) { group in
            group.addTask { await self.readLoop(connection) }
            var failure: String?
            var signedIn = false
            do throws(ParlorClientError) {
                let userId = try await signIn(connection)
                signedIn = opened(connection, as: userId)
            } catch {
                failure = "signing in failed: \(error.clause)"
                logger.warning("Signing in failed", metadata: ["error": "\(error)"])
            }
            if !signedIn { await connection.socket.close(code: .normalClosure) }
            let readerReason = await group.next() ?? "the connection ended"
            let moved = state.withLockedValue { $0.moving != nil }
            let restarting = await connection.socket.closeStatus.code == .serviceRestart
            return ServeOutcome(signedIn: signedIn, reason: failure ?? readerReason, moved: moved && signedIn, restarting: restarting)
        }
    }

    /// `hello` with the account's JWT (`tokenProvider`) or the stored token, then every subscription again.
    private func signIn(_ connection: Connection) async throws(ParlorClientError) -> UserID {
        let deadline = ContinuousClock.now.advanced(by: configuration.requestTimeout)
        let key = configuration.tokenKey
        let token = configuration.tokenStore.token(for: key)
        var hello: HelloResult
        if let provider = configuration.tokenProvider {
            // Signed in as the account: the stored token (an anonymous identity's) stays as it was.
            let jwt = try await accountToken(provider)
            hello = try await send(.hello(HelloArguments(jwt: jwt)), on: connection, deadline: deadline, as: HelloResult.self)
        } else {
            do throws(ParlorClientError) {
                hello = try await send(.hello(HelloArguments(token: token)), on: connection, deadline: deadline, as: HelloResult.self)
            } catch {
                // A token the server no longer honours (another server's, or an expired one): start afresh.
                guard token != nil, let code = error.serverCode, code == .unauthenticated || code == .badRequest else { throw error }
                hello = try await send(.hello(HelloArguments()), on: connection, deadline: deadline, as: HelloResult.self)
            }
        }
        if configuration.tokenProvider == nil, hello.token != token {
            do throws(TokenStoreError) {
                try configuration.tokenStore.setToken(hello.token, for: key)
            } catch {
                logger.warning("The sign-in token could not be stored", metadata: ["error": "\(error)"])
            }
        }
        state.withLockedValue { state in
            state.userId = hello.userId
            state.routing.signedIn(on: hello.node)
        }
        for target in state.withLockedValue({ $0.subscriptions.targets }) {
            do throws(ParlorClientError) {
                _ = try await exchange(target.observeOperation, on: connection, purpose: .subscribe(target), deadline: deadline)
            } catch {
                guard let code = error.serverCode, target.isGone(code) else { throw error }
                carryOut(state.withLockedValue { $0.subscriptions.targetGone(target) }, on: connection)
            }
        }
        return hello.userId
    }

    /// A fresh JWT from `provider`; what it throws is an invalid configuration, said as it said it.
    func accountToken(_ provider: @Sendable () async throws -> String) async throws(ParlorClientError) -> String {
        do {
            return try await provider()
        } catch {
            throw .invalidConfiguration("The token provider gave no token: \(error)")
        }
    }

    /// The server says the connection's JWT has expired (`tokenExpired`): a fresh one from the token
    /// provider keeps it signed in (`refreshAuth`). Without one the server closes the connection after
    /// its grace, and the client signs in again, asking the provider then.
    func tokenExpired(on connection: Connection) {
        guard let provider = configuration.tokenProvider else {
            logger.warning("The server says the sign-in expired, and there is no token provider to refresh it")
            return
        }
        let deadline = ContinuousClock.now.advanced(by: configuration.requestTimeout)
        Task {
            do throws(ParlorClientError) {
                let jwt = try await self.accountToken(provider)
                let refreshed = try await self.send(
                    .refreshAuth(RefreshAuthArguments(jwt: jwt)), on: connection, deadline: deadline, as: RefreshAuthResult.self)
                self.logger.info("Refreshed the sign-in", metadata: ["expiresAt": "\(refreshed.expiresAt)"])
            } catch {
                self.logger.warning("Refreshing the sign-in failed; the client signs in again once the server closes", metadata: ["error": "\(error)"])
            }
        }
    }

    /// Opens the connection for requests; false when the client is closing.
    private func opened(_ connection: Connection, as userId: UserID) -> Bool {
        let waiters = state.withLockedValue { state -> [(WaiterSlots<Result<Connection, ParlorClientError>>.Waiter, Result<Connection, ParlorClientError>)]? in
            guard !state.closeRequested, state.generation == connection.generation else { return nil }
            // Moving to another node already: requests wait for that connection.
            guard state.moving == nil else { return [] }
            state.phase = .open(connection)
            state.lastFailure = nil
            state.everConnected = true
            return state.connectionWaiters.resolveAll(with: .success(connection))
        }
        guard let waiters else { return false }
        states.send(.connected(userId: userId))
        for (waiter, value) in waiters { waiter.resume(returning: value) }
        return true
    }

    private func connectionEnded(generation: Int, reason: String) {
        let failFast = configuration.failsFastUntilConnected
        let waiters = state.withLockedValue { state -> [(WaiterSlots<Result<Connection, ParlorClientError>>.Waiter, Result<Connection, ParlorClientError>)] in
            state.lastFailure = reason
            guard failFast, !state.everConnected else { return [] }
            return state.connectionWaiters.resolveAll(with: .failure(.notConnected(reason: reason)))
        }
        for (waiter, value) in waiters { waiter.resume(returning: value) }
        connectionDropped(generation: generation)
    }

    /// Connection `generation` is gone: its requests are lost, its subscription ids mean nothing, and
    /// new requests wait for the next connection.
    func connectionDropped(generation: Int, restarted: Bool = false) {
        let resumptions = state.withLockedValue { state -> [(ClientState.ReplyWaiter, ReplyOutcome)] in
            state.lostGeneration = max(state.lostGeneration, generation)
            if restarted { state.restartedGeneration = max(state.restartedGeneration, generation) }
            if state.phase.connection?.generation == generation { state.phase = .connecting }
            if generation == state.generation { state.subscriptions.unbindAll() }
            return state.pending.connectionLost(generation: generation, unread: restarted)
        }
        for (waiter, outcome) in resumptions { waiter.resume(returning: outcome) }
    }

    /// Marks the client closing, wakes the backoff, and returns the socket to close (if any).
    @discardableResult
    private func requestClose() -> WebSocket? {
        let (socket, waiters, neverRan) = state.withLockedValue { state in
            state.closeRequested = true
            let waiters = state.closeWaiters.resolveAll(with: ())
            var neverRan = false
            if case .idle = state.phase { neverRan = true }
            return (state.phase.connection?.socket, waiters, neverRan)
        }
        for (waiter, _) in waiters { waiter.resume() }
        if neverRan { finishClosed(reason: nil) }
        if let socket, Task.isCancelled {
            // Cancellation handlers cannot wait; the close handshake runs on its own.
            Task { await socket.close(code: .goingAway) }
        }
        return socket
    }

    private func finishClosed(reason: String?) {
        let notConnected = ParlorClientError.notConnected(reason: reason ?? "the client was closed")
        let (waiters, pending, effects) = state.withLockedValue { state in
            state.closeRequested = true
            state.phase = .closed(reason: reason)
            return (
                state.connectionWaiters.resolveAll(with: .failure(notConnected)),
                state.pending.connectionLost(generation: .max),
                state.subscriptions.finishAll())
        }
        for (waiter, value) in waiters { waiter.resume(returning: value) }
        for (waiter, outcome) in pending { waiter.resume(returning: outcome) }
        carryOut(effects, on: nil)
        states.finish(with: .closed(reason: reason))
        presences.finish(with: presences.current)
        accesses.finish(with: accesses.current)
    }

    /// Sleeps `duration` through the injected sleep, or less if the client is closed meanwhile.
    private func pause(_ duration: Duration) async {
        let sleep = configuration.sleep
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await sleep(duration) }
            group.addTask { await self.waitForCloseRequest() }
            await group.next()
            group.cancelAll()
        }
    }

    private func waitForCloseRequest() async {
        guard let id = state.withLockedValue({ $0.closeRequested ? nil : $0.closeWaiters.reserve() }) else { return }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                if state.withLockedValue({ $0.closeWaiters.wait(id, waiter: continuation, gone: ()) }) != nil {
                    continuation.resume()
                }
            }
        } onCancel: {
            if let (waiter, value) = state.withLockedValue({ $0.closeWaiters.resolve(id, with: ()) }) {
                waiter.resume(returning: value)
            }
        }
    }
}
