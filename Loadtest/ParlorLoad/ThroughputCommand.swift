import ArgumentParser
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import ParlorRules
import ParlorWire
import WebSocketCore

/// Closed-loop saturation: how many acknowledged room changes per second a server sustains with many
/// rooms changing at once. Each room has a host who enters scores back to back (the next as soon as
/// the previous is acknowledged) and a guest who observes the room. Run it against a server with and
/// without `--no-persist` to see what durability costs.
struct ThroughputCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "throughput",
        abstract: "Measure acknowledged room changes per second, closed loop (start the server with a high --rate-limit).")

    @OptionGroup var address: ServerAddress

    var url: String { address.url(default: "ws://127.0.0.1:8080/ws") }

    @Option(help: "Rooms changing at once (each has one writer and one observer).")
    var rooms: Int = 100

    @Option(help: "Seconds to measure, after set-up.")
    var seconds: Double = 10

    func validate() throws {
        guard rooms > 0, seconds > 0 else { throw ValidationError("--rooms and --seconds must be positive.") }
    }

    func run() async throws {
        var configuration = WebSocketClientConfiguration()
        configuration.webSocket.compression = nil
        configuration.webSocket.pingInterval = nil
        configuration.webSocket.idleTimeout = nil
        let client = configuration
        let url = self.url
        let seconds = self.seconds
        let acknowledged = NIOLockedValueBox(0)
        let failures = NIOLockedValueBox([String: Int]())
        let latencies = NIOLockedValueBox([Double]())
        let ready = NIOLockedValueBox(0)
        let go = ShutdownSignal()
        let roomCount = rooms
        let setupStart = ContinuousClock.now

        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<roomCount {
                group.addTask {
                    do {
                        try await Self.playRoom(
                            url: url, configuration: client, seconds: seconds, go: go, ready: ready,
                            acknowledged: acknowledged, latencies: latencies)
                    } catch {
                        failures.withLockedValue { $0["\(error)", default: 0] += 1 }
                        ready.withLockedValue { $0 += 1 }
                    }
                }
            }
            while ready.withLockedValue({ $0 }) < roomCount { try await Task.sleep(for: .milliseconds(20)) }
            let setup = (ContinuousClock.now - setupStart) / .seconds(1)
            FileHandle.standardError.write(Data("set up \(roomCount) rooms in \(String(format: "%.1f", setup)) s; measuring…\n".utf8))
            go.fire()
            try await group.waitForAll()
        }
        let total = acknowledged.withLockedValue { $0 }
        var sorted = latencies.withLockedValue { $0 }
        sorted.sort()
        func percentile(_ p: Double) -> Double {
            sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
        }
        print(
            "throughput: \(roomCount) rooms, \(String(format: "%.0f", Double(total) / seconds)) acknowledged changes/s "
                + "(\(total) in \(seconds) s); ack latency p50 \(String(format: "%.2f", percentile(0.5))) ms, "
                + "p99 \(String(format: "%.2f", percentile(0.99))) ms, max \(String(format: "%.2f", sorted.last ?? 0)) ms")
        let failed = failures.withLockedValue { $0 }
        if !failed.isEmpty {
            print("failures: \(failed)")
            throw ExitCode(1)
        }
    }

    /// Sets up one room (host creates, guest joins, readies and observes, host starts), then writes
    /// scores back to back until the time is up.
    private static func playRoom(
        url: String, configuration: WebSocketClientConfiguration, seconds: Double, go: ShutdownSignal,
        ready: NIOLockedValueBox<Int>, acknowledged: NIOLockedValueBox<Int>, latencies: NIOLockedValueBox<[Double]>
    ) async throws {
        try await WebSocketClient.connect(to: url, configuration: configuration) { hostSocket in
            let host = FrameClient(hostSocket)
            let hostId = try await host.hello()
            let created = try await host.call(.createRoom(CreateRoomArguments(pointLimit: 350, pointValue: 1, playerCount: 2, playerName: "Host")), as: RoomServiceResult.self)
            let code = created.room.id.rawValue
            try await WebSocketClient.connect(to: url, configuration: configuration) { guestSocket in
                let guest = FrameClient(guestSocket)
                let guestId = try await guest.hello()
                _ = try await guest.call(.joinRoom(JoinRoomArguments(code: code, playerName: "Guest")), as: RoomServiceResult.self)
                _ = try await guest.call(.setReady(SetReadyArguments(roomCode: code, playerId: guestId, ready: true)), as: GameRoom.self)
                _ = try await guest.call(.observeRoom(CodeArguments(code: code)), as: Subscribed.self)
                _ = try await host.call(.startRoomGame(RoomCodeArguments(roomCode: code)), as: GameRoom.self)
                ready.withLockedValue { $0 += 1 }
                await go.wait()
                // The observer drains its events while the host writes.
                async let drained: Void = guest.drainEvents()
                let clock = ContinuousClock()
                let deadline = clock.now + .milliseconds(Int64(seconds * 1000))
                var score = 0
                var mine: [Double] = []
                var count = 0
                while clock.now < deadline {
                    score = score == 1000 ? 1 : score + 1
                    let sent = clock.now
                    _ = try await host.call(
                        .submitScore(SubmitScoreArguments(roomCode: code, playerId: hostId, round: 1, score: score)),
                        as: GameRoom.self)
                    mine.append(Double((clock.now - sent) / .microseconds(1)) / 1000)
                    count += 1
                }
                acknowledged.withLockedValue { $0 += count }
                latencies.withLockedValue { $0 += mine }
                await guestSocket.close()
                _ = try? await drained
                // The room goes with the run: the host takes the guest out, then itself (the last one out
                // deletes it), so the server does not keep it until it expires.
                try await host.perform(.leaveRoom(LeaveRoomArguments(roomCode: code, playerId: guestId)))
                try await host.perform(.leaveRoom(LeaveRoomArguments(roomCode: code, playerId: hostId)))
            }
        }
    }
}

/// A minimal request/reply client over one WebSocket, for the load scenarios.
final class FrameClient: @unchecked Sendable {
    // @unchecked: used from one task at a time (the scenario's), except `drainEvents`, which only reads.
    private let webSocket: WebSocket
    private var inbound: WebSocket.Inbound.AsyncIterator
    private var nextID: Int64 = 0

    init(_ webSocket: WebSocket) {
        self.webSocket = webSocket
        inbound = webSocket.inbound.makeAsyncIterator()
    }

    struct ServerError: Error, CustomStringConvertible {
        let error: WireError
        var description: String { error.code.rawValue }
    }

    func hello() async throws -> UserID {
        try await call(.hello(HelloArguments()), as: HelloResult.self).userId
    }

    /// Sends one request and returns its result, skipping events that arrive first.
    func call<Result: Decodable & Sendable>(_ operation: ParlorWire.Operation, as type: Result.Type) async throws -> Result {
        let bytes = try await exchange(operation)
        let reply = try WireJSON.decode(ServerFrame.Reply<Result>.self, from: bytes)
        guard let result = reply.result else { throw ServerError(error: WireError(.internal, "empty result")) }
        return result
    }

    /// Sends one request whose result is `null` (`leaveRoom`) and returns once it is answered.
    func perform(_ operation: ParlorWire.Operation) async throws {
        _ = try await exchange(operation)
    }

    /// Sends one request; its reply's bytes, or the error it carried, thrown.
    private func exchange(_ operation: ParlorWire.Operation) async throws -> [UInt8] {
        nextID += 1
        let id = RequestID.number(nextID)
        try await webSocket.send(WebSocketMessage(kind: .text, data: ByteBuffer(bytes: try Request(id: id, operation: operation).encoded())))
        while let message = try await inbound.next() {
            let bytes = Array(message.data.readableBytesView)
            let header = try WireJSON.decode(ServerFrame.Header.self, from: bytes)
            guard header.id == id else { continue }
            if let error = header.error { throw ServerError(error: error) }
            return bytes
        }
        throw WebSocketError.closed
    }

    func drainEvents() async throws {
        while try await inbound.next() != nil {}
    }
}
