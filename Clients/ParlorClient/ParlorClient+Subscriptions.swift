import ParlorWire

// Subscriptions: streams that outlive connections.

extension ParlorClient {
    /// Adds `sink` to `target`'s streams and makes sure the server subscription exists. On failure the
    /// stream is finished and the error thrown.
    func subscribe(_ target: SubscriptionTarget, sink: SubscriptionTable.Sink) async throws(ParlorClientError) {
        let sinkID = state.withLockedValue { state -> Int in
            let (id, prime) = state.subscriptions.addSink(sink, for: target)
            // Yielding under the lock keeps the primer ahead of any newer event the reader delivers.
            if let prime { Self.yield(prime) }
            return id
        }
        let onTermination: @Sendable (Any) -> Void = { [weak self] _ in self?.streamEnded(sinkID, target: target) }
        switch sink {
        case .room(let continuation): continuation.onTermination = { onTermination($0) }
        case .lobby(let continuation): continuation.onTermination = { onTermination($0) }
        case .match(let continuation): continuation.onTermination = { onTermination($0) }
        case .quiz(let continuation): continuation.onTermination = { onTermination($0) }
        }
        do throws(ParlorClientError) {
            let deadline = ContinuousClock.now.advanced(by: configuration.requestTimeout)
            _ = try await exchange(target.observeOperation, purpose: .subscribe(target), deadline: deadline)
        } catch {
            streamEnded(sinkID, target: target)
            switch sink {
            case .room(let continuation): continuation.finish()
            case .lobby(let continuation): continuation.finish()
            case .match(let continuation): continuation.finish()
            case .quiz(let continuation): continuation.finish()
            }
            throw error
        }
    }

    /// A caller's stream ended (it stopped iterating, or the stream was finished). When it was the
    /// target's last, the server subscription is dropped too.
    func streamEnded(_ sinkID: Int, target: SubscriptionTarget) {
        let (serverID, connection) = state.withLockedValue { state in
            (state.subscriptions.removeSink(sinkID, from: target), state.phase.connection)
        }
        guard let serverID, let connection else { return }
        Task {
            let deadline = ContinuousClock.now.advanced(by: configuration.requestTimeout)
            do throws(ParlorClientError) {
                _ = try await exchange(.unsubscribe(UnsubscribeArguments(subscription: serverID)), on: connection, deadline: deadline)
            } catch {
                logger.debug("Unsubscribing failed", metadata: ["target": "\(target)", "error": "\(error)"])
            }
        }
    }

    /// Does what the subscription table asked for.
    func carryOut(_ effects: [SubscriptionTable.Effect], on connection: Connection?) {
        for effect in effects {
            switch effect {
            case .room, .lobby, .match, .quiz:
                Self.yield(effect)
            case .presence(let presence):
                presences.send(presence)
            case .closed(let reason):
                closedReasons.withLockedValue { $0 = reason }
            case .finish(let sinks):
                for sink in sinks {
                    switch sink {
                    case .room(let continuation): continuation.finish()
                    case .lobby(let continuation): continuation.finish()
                    case .match(let continuation): continuation.finish()
                    case .quiz(let continuation): continuation.finish()
                    }
                }
            case .resubscribe(let target):
                guard let connection else { continue }
                Task { await self.resubscribe(target, on: connection) }
            case .malformed(let why):
                logger.warning("Ignoring an event", metadata: ["why": "\(why)"])
            }
        }
    }

    private func resubscribe(_ target: SubscriptionTarget, on connection: Connection) async {
        let deadline = ContinuousClock.now.advanced(by: configuration.requestTimeout)
        do throws(ParlorClientError) {
            _ = try await exchange(target.observeOperation, on: connection, purpose: .subscribe(target), deadline: deadline)
        } catch {
            if let code = error.serverCode, target.isGone(code) {
                carryOut(state.withLockedValue { $0.subscriptions.targetGone(target) }, on: connection)
            } else if let code = error.serverCode, target.isRevoked(code) {
                carryOut(state.withLockedValue { $0.subscriptions.targetRevoked(target) }, on: connection)
            } else {
                logger.info("Subscribing again failed; retrying on the next connection", metadata: ["target": "\(target)"])
            }
        }
    }

    private static func yield(_ effect: SubscriptionTable.Effect) {
        switch effect {
        case .room(let sinks, let room):
            for sink in sinks { sink.yield(room) }
        case .lobby(let sinks, let event):
            for sink in sinks { sink.yield(event) }
        case .match(let sinks, let match):
            for sink in sinks { sink.yield(match) }
        case .quiz(let sinks, let quiz):
            for sink in sinks { sink.yield(quiz) }
        case .presence, .closed, .finish, .resubscribe, .malformed:
            break
        }
    }
}
