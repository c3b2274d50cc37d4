import NIOCore
import ParlorRules
import ParlorWire
import WebSocketCore

// Requests: waiting for the connection, sending, matching replies to requests, timeouts.

extension ParlorClient {
    /// Sends `operation` and decodes its result as `Result`. Waits for the connection if it is being
    /// (re)established; the whole request is bounded by `requestTimeout`.
    public func send<Result: Decodable & Sendable>(
        _ operation: ParlorWire.Operation, as type: Result.Type = Result.self
    ) async throws(ParlorClientError) -> Result {
        let deadline = ContinuousClock.now.advanced(by: configuration.requestTimeout)
        let operation = configuration.gameAccess.map { Self.carrying($0, operation) } ?? operation
        let bytes = try await exchange(operation, deadline: deadline)
        return try Self.decode(bytes, of: operation, as: type)
    }

    /// Sends an operation whose result carries nothing (`leaveRoom`, `unsubscribe`, …).
    public func sendExpectingNoResult(_ operation: ParlorWire.Operation) async throws(ParlorClientError) {
        _ = try await send(operation, as: IgnoredResult.self)
    }

    /// The signed-in user; waits for the connection (within the request timeout).
    public func currentUserID() async throws(ParlorClientError) -> UserID {
        if let userId, connectionState.isConnected { return userId }
        let deadline = ContinuousClock.now.advanced(by: configuration.requestTimeout)
        _ = try await connection(before: deadline)
        guard let userId else { throw .notConnected(reason: "not signed in yet") }
        return userId
    }

    /// Sends on `connection` only (signing in and re-subscribing belong to one connection).
    func send<Result: Decodable & Sendable>(
        _ operation: ParlorWire.Operation, on connection: Connection, deadline: ContinuousClock.Instant,
        as type: Result.Type
    ) async throws(ParlorClientError) -> Result {
        try Self.decode(try await exchange(operation, on: connection, deadline: deadline), of: operation, as: type)
    }

    static func decode<Result: Decodable & Sendable>(
        _ bytes: [UInt8], of operation: ParlorWire.Operation, as type: Result.Type
    ) throws(ParlorClientError) -> Result {
        let name = operation.name.rawValue
        let reply: ServerFrame.Reply<Result>
        do {
            reply = try WireJSON.decode(ServerFrame.Reply<Result>.self, from: bytes)
        } catch {
            throw .protocolViolation("the answer to \(name) could not be read (\(error))")
        }
        if let result = reply.result { return result }
        if Result.self == IgnoredResult.self, let nothing = IgnoredResult() as? Result { return nothing }
        throw .protocolViolation("the server answered \(name) with no result")
    }

    /// Sends one request on whatever connection is open, waiting for one while the client reconnects,
    /// and returns its reply frame (an error reply throws). A request that could not even be written
    /// (the connection was going down), that the server refused because it is shutting down, or that
    /// a restarting node closed on (1012) without answering — the server did nothing with either —
    /// waits for the next connection; one that was written and then lost its connection otherwise
    /// fails with `.connectionLost`. All within `deadline`.
    func exchange(
        _ operation: ParlorWire.Operation, purpose: RequestPurpose = .plain, deadline: ContinuousClock.Instant
    ) async throws(ParlorClientError) -> [UInt8] {
        while true {
            // A connection that is going down may fail every write until its reader notices: the
            // deadline bounds the retries too, not only the waits.
            guard ContinuousClock.now < deadline else {
                throw .timeout(operation: operation.name.rawValue, after: configuration.requestTimeout)
            }
            let connection = try await connection(before: deadline)
            switch await attempt(operation, on: connection, purpose: purpose, deadline: deadline) {
            case .reply(let bytes): return bytes
            case .failed(let error) where error.serverCode == .shuttingDown:
                leaving(connection)
            case .failed(let error): throw error
            case .notSent: await Task.yield()
            }
        }
    }

    /// The server said it is shutting down: nothing more is sent on `connection` (requests wait for
    /// the next one, which it closes for soon), and the next connection asks for no node in particular.
    func leaving(_ connection: Connection) {
        state.withLockedValue { state in
            guard state.generation == connection.generation, case .open = state.phase else { return }
            state.phase = .signingIn(connection)
            state.routing.restarting()
        }
    }

    /// Sends one request on `connection` and waits for its reply frame (an error reply throws).
    func exchange(
        _ operation: ParlorWire.Operation, on connection: Connection,
        purpose: RequestPurpose = .plain, deadline: ContinuousClock.Instant
    ) async throws(ParlorClientError) -> [UInt8] {
        switch await attempt(operation, on: connection, purpose: purpose, deadline: deadline) {
        case .reply(let bytes): return bytes
        case .failed(let error): throw error
        case .notSent: throw .connectionLost(operation: operation.name.rawValue)
        }
    }

    enum Attempt {
        case reply([UInt8])
        /// The frame could not be written: the server never saw the request.
        case notSent
        case failed(ParlorClientError)
    }

    private func attempt(
        _ operation: ParlorWire.Operation, on connection: Connection, purpose: RequestPurpose, deadline: ContinuousClock.Instant
    ) async -> Attempt {
        let name = operation.name.rawValue
        let registered = state.withLockedValue {
            $0.pending.register(operation: name, generation: connection.generation, purpose: purpose)
        }
        guard let id = registered else { return .failed(.tooManyPendingRequests(limit: configuration.maxPendingRequests)) }
        let frame: [UInt8]
        do {
            frame = try Request(id: .number(id), operation: operation).encoded()
        } catch {
            state.withLockedValue { $0.pending.remove(id) }
            return .failed(.invalidConfiguration("The \(name) request could not be encoded (\(error))"))
        }
        do {
            try await connection.socket.send(WebSocketMessage(kind: .text, data: ByteBuffer(bytes: frame)))
        } catch {
            state.withLockedValue { $0.pending.remove(id) }
            return .notSent
        }
        // The connection may have gone down between the write and now, after its pending requests
        // were failed: then nobody else will fail this one.
        let lost = state.withLockedValue { state -> (lost: Bool, restarted: Bool) in
            (state.lostGeneration >= connection.generation, state.restartedGeneration == connection.generation)
        }
        if lost.lost {
            complete(id, with: .failure(lost.restarted ? .unreadBeforeRestart(name) : .connectionLost(operation: name)))
        }
        let timeout = configuration.requestTimeout
        let timer = Task {
            try? await Task.sleep(until: deadline, clock: .continuous)
            if !Task.isCancelled { self.complete(id, with: .failure(.timeout(operation: name, after: timeout))) }
        }
        defer { timer.cancel() }
        let outcome = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: ClientState.ReplyWaiter) in
                if let outcome = state.withLockedValue({ $0.pending.wait(id, waiter: continuation) }) {
                    continuation.resume(returning: outcome)
                }
            }
        } onCancel: {
            self.complete(id, with: .failure(.cancelled))
        }
        switch outcome {
        case .success(let bytes): return .reply(bytes)
        case .failure(let error): return .failed(error)
        }
    }

    func complete(_ id: Int64, with outcome: ReplyOutcome) {
        if let (waiter, outcome) = state.withLockedValue({ $0.pending.complete(id, with: outcome) }) {
            waiter.resume(returning: outcome)
        }
    }

    /// The open connection, waiting for one until `deadline`.
    func connection(before deadline: ContinuousClock.Instant) async throws(ParlorClientError) -> Connection {
        enum Now { case ready(Connection), failed(ParlorClientError), wait(Int) }
        let now = state.withLockedValue { state -> Now in
            switch state.phase {
            case .open(let connection): return .ready(connection)
            case .closed(let reason): return .failed(.notConnected(reason: reason ?? "the client was closed"))
            case .idle, .connecting, .signingIn:
                if state.closeRequested { return .failed(.notConnected(reason: "the client was closed")) }
                if configuration.failsFastUntilConnected, !state.everConnected, let reason = state.lastFailure {
                    return .failed(.notConnected(reason: reason))
                }
                return .wait(state.connectionWaiters.reserve())
            }
        }
        let id: Int
        switch now {
        case .ready(let connection): return connection
        case .failed(let error): throw error
        case .wait(let slot): id = slot
        }
        let waited = ContinuousClock.now
        let timer = Task {
            try? await Task.sleep(until: deadline, clock: .continuous)
            guard !Task.isCancelled else { return }
            let reason = self.state.withLockedValue { $0.lastFailure }
                ?? "no connection to \(self.server) within \(ParlorClientError.seconds(ContinuousClock.now - waited))"
            self.resolveConnectionWaiter(id, with: .failure(.notConnected(reason: reason)))
        }
        defer { timer.cancel() }
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: WaiterSlots<Result<Connection, ParlorClientError>>.Waiter) in
                if let value = state.withLockedValue({
                    $0.connectionWaiters.wait(id, waiter: continuation, gone: .failure(.cancelled))
                }) {
                    continuation.resume(returning: value)
                }
            }
        } onCancel: {
            self.resolveConnectionWaiter(id, with: .failure(.cancelled))
        }
        return try result.get()
    }

    private func resolveConnectionWaiter(_ id: Int, with value: Result<Connection, ParlorClientError>) {
        if let (waiter, value) = state.withLockedValue({ $0.connectionWaiters.resolve(id, with: value) }) {
            waiter.resume(returning: value)
        }
    }

    // MARK: - Reading

    /// Reads `connection` until it ends; returns why it ended.
    func readLoop(_ connection: Connection) async -> String {
        var failure: String?
        do {
            for try await message in connection.socket.inbound {
                guard message.kind == .text else {
                    logger.warning("Ignoring a binary message from the server")
                    continue
                }
                handleFrame(Array(message.data.readableBytesView), on: connection)
            }
        } catch {
            failure = ConnectionFailure.describe(error, server: server)
        }
        // Nothing more will arrive: requests on this connection are lost now, not at their timeout, and
        // new requests wait for the next connection. Those a restarting node closed on (1012) without
        // answering were never read, and go out again on the next connection.
        let status = await connection.socket.closeStatus
        let restarted = failure == nil && status.code == .serviceRestart
        connectionDropped(generation: connection.generation, restarted: restarted)
        if let failure { return failure }
        return ConnectionFailure.describe(status)
    }

    func handleFrame(_ bytes: [UInt8], on connection: Connection) {
        let header: ServerFrame.Header
        do {
            header = try WireJSON.decode(ServerFrame.Header.self, from: bytes)
        } catch {
            logger.warning("Ignoring a frame that could not be read", metadata: ["error": "\(error)"])
            return
        }
        if let sub = header.sub {
            switch header.event {
            case .node?:
                heardNode(bytes, sub: sub, on: connection)
                return
            case .end?:
                state.withLockedValue { $0.routing.ended(sub) }
            default:
                break
            }
            let effects = state.withLockedValue {
                $0.subscriptions.receive(sub: sub, event: header.event, frame: bytes, generation: connection.generation)
            }
            carryOut(effects, on: connection)
            return
        }
        if header.event == .tokenExpired, header.id == nil {
            tokenExpired(on: connection)
            return
        }
        guard case .number(let id)? = header.id else {
            logger.warning("Ignoring a reply without a request id", metadata: ["error": "\(header.error?.message ?? "none")"])
            return
        }
        let outcome: ReplyOutcome = header.error.map { .failure(ParlorClientError($0)) } ?? .success(bytes)
        let resumption = state.withLockedValue { state -> (ClientState.ReplyWaiter, ReplyOutcome)? in
            if case .subscribe(let target)? = state.pending.entry(id)?.purpose, case .success = outcome,
               let subscribed = try? WireJSON.decode(ServerFrame.Reply<Subscribed>.self, from: bytes).result {
                state.subscriptions.bind(target, to: subscribed.subscription)
            }
            return state.pending.complete(id, with: outcome)
        }
        if let (waiter, outcome) = resumption { waiter.resume(returning: outcome) }
    }
}

/// A result whose content does not matter (`null` for `leaveRoom`, `unsubscribe`, …).
public struct IgnoredResult: Decodable, Sendable {
    public init() {}
    public init(from decoder: any Decoder) throws {}
}
