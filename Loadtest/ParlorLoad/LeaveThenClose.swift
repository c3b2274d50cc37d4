import NIOCore
import WebSocketCore

/// How a generator connection ends when the run does, without a task: on its event loop, the request
/// that leaves its game goes out, and the connection closes when that request's reply arrives — or
/// after `timeout`, or at once for a connection with nothing to leave. A player that leaves before
/// closing lets the server delete rooms nobody will come back to (the last player out deletes it).
///
/// `@unchecked Sendable`: `timer` is touched only on the connection's event loop.
final class LeaveThenClose: @unchecked Sendable {
    let connection: WebSocketConnection
    /// The request that leaves the game (its id `RoomMember.leaveID`), nil when there is none.
    let leave: ByteBuffer?
    let timeout: TimeAmount
    /// Set once the leaving request is out: closes the connection if the reply does not come in time.
    private var timer: Scheduled<Void>?

    init(_ connection: WebSocketConnection, leave: ByteBuffer?, timeout: TimeAmount = .seconds(5)) {
        self.connection = connection
        self.leave = leave
        self.timeout = timeout
    }

    /// Leaves when `finish` opens (a closure left with the gate, not a task waiting on it).
    func whenOpen(_ finish: Gate<Bool>) {
        finish.onOpen { _ in self.connection.eventLoop.execute { self.begin() } }
    }

    /// On the loop, from the receiver: a frame that came after the run's end. The leaving request's
    /// reply closes the connection; anything else is not measured.
    func received(_ message: WebSocketMessage) {
        guard let timer, case .reply(RoomMember.leaveID, _, _) = ScannedFrame(message.data) else { return }
        timer.cancel()
        self.timer = nil
        connection.close()
    }

    /// On the loop, from the receiver: the connection has closed.
    func closed() {
        timer?.cancel()
        timer = nil
    }

    private func begin() {
        guard let leave, connection.isActive else {
            connection.close()
            return
        }
        let connection = self.connection
        timer = connection.eventLoop.scheduleTask(in: timeout) { connection.close() }
        connection.send(WebSocketMessage(kind: .text, data: leave))
    }
}
