import ParlorWire
import WebSocketCore

// Following games to the node of a cluster that serves them (`NodeRouting`).

extension ParlorClient {
    /// A `node` event: subscription `sub` follows a game served by `node`. When every game followed is
    /// served by a node other than this connection's, the client moves there.
    func heardNode(_ frame: [UInt8], sub: Int, on connection: Connection) {
        guard let served = try? WireJSON.decode(ServerFrame.Event<ServingNode>.self, from: frame).data else {
            logger.warning("Ignoring a node event that could not be read")
            return
        }
        let target = state.withLockedValue { state -> String? in
            guard state.generation == connection.generation, state.moving == nil else { return nil }
            let target = state.routing.heard(served.node, on: sub)
            if target != nil { state.moving = target }
            return target
        }
        guard let target else { return }
        logger.info("Moving to the node that serves the game", metadata: ["node": "\(target)"])
        Task { await self.move(to: target, from: connection) }
    }

    /// Leaves `connection` for one that asks for `node`: requests made from now on wait for the new
    /// connection, those already sent are answered first (for up to `moveGrace`), then this one closes
    /// and the connection loop connects again at once, asking for `node`, and subscribes again there.
    private func move(to node: String, from connection: Connection) async {
        state.withLockedValue { state in
            if state.generation == connection.generation, case .open = state.phase { state.phase = .signingIn(connection) }
        }
        let deadline = ContinuousClock.now + Self.moveGrace
        while ContinuousClock.now < deadline, state.withLockedValue({ $0.pending.count(generation: connection.generation) }) > 0 {
            try? await Task.sleep(for: .milliseconds(10))
        }
        await connection.socket.close(code: .normalClosure, reason: "moving to node \(node)")
    }

    /// How long a move waits for the requests already sent to be answered.
    static var moveGrace: Duration { .seconds(2) }
}
