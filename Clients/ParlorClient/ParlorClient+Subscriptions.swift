import ParlorWire

// Subscriptions: streams that outlive connections.

extension ParlorClient {
    /// Follows the game `key` names (its code, or a lobby's id) through its game's `stream`: its every
    /// change from its current state on, as the stream declares them (for most games a view per version,
    /// nil when the game is deleted; the stream then ends). Survives reconnects: the same stream goes on
    /// after the client subscribes again, without repeats or older versions. Views conflate for a slow
    /// reader (see ``ParlorClientConfiguration/eventBuffers``). Stop iterating to unsubscribe.
    public func follow<Update>(_ stream: GameStream<Update>, key: String) async throws(ParlorClientError) -> AsyncStream<Update> {
        let (updates, continuation) = AsyncStream.makeStream(
            of: Update.self, bufferingPolicy: .bufferingNewest(max(configuration.eventBuffers[stream.kind] ?? stream.defaultBuffer, 1)))
        let (target, sinkID) = state.withLockedValue { state -> (SubscriptionTarget, Int) in
            let (target, id, prime) = state.subscriptions.add(continuation, of: stream, key: key)
            // Yielding under the lock keeps the primer ahead of any newer event the reader delivers.
            if case .deliver(let delivery)? = prime { delivery.yield() }
            return (target, id)
        }
        continuation.onTermination = { [weak self] _ in self?.streamEnded(sinkID, target: target) }
        do throws(ParlorClientError) {
            let deadline = ContinuousClock.now.advanced(by: configuration.requestTimeout)
            _ = try await exchange(target.observeOperation, purpose: .subscribe(target), deadline: deadline)
        } catch {
            streamEnded(sinkID, target: target)
            continuation.finish()
            throw error
        }
        return updates
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
            case .deliver(let delivery):
                delivery.yield()
            case .presence(let presence):
                presences.send(presence)
            case .access(let access):
                accesses.send(access)
            case .closed(let reason):
                closedReasons.withLockedValue { $0 = reason }
            case .finish(let end):
                end.finish()
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

    /// Codes are typed in any case and with stray spaces; the server reads them the same way, and so must
    /// the key under which the subscription is kept.
    static func normalizedCode(_ code: String) -> String {
        var slice = Substring(code)
        while let first = slice.first, first.isWhitespace { slice = slice.dropFirst() }
        while let last = slice.last, last.isWhitespace { slice = slice.dropLast() }
        return slice.uppercased()
    }
}
