import ArgumentParser
import Foundation
import ParlorRules
import ParlorWire

/// Micro-benchmarks of the JSON work on the server's hot path: decoding a request, encoding a room's
/// public view (once per version) and wrapping it into a reply or an event frame.
struct WireBenchmarkCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wire", abstract: "Measure request decoding and room encoding (no network).")

    @Option(help: "Seconds to spend on each measurement.")
    var seconds: Double = 1.0

    @Option(help: "Run only the measurements whose name contains this text (e.g. \"decode\", to profile one).")
    var only: String?

    func run() throws {
        var generator = SystemRandomNumberGenerator()
        let users = (0..<8).map { _ in UserID.random(using: &generator) }
        let now = Instant(millisecondsSinceEpoch: 1_800_000_000_000)
        var room = try RummyRoom.create(
            code: RoomCode(uncheckedRawValue: "A1B2C3"), pointLimit: 350, pointValue: 25, playerCount: 8,
            creator: users[0], playerName: "Player 0", at: now)
        for (index, user) in users.enumerated().dropFirst() {
            _ = try room.apply(.join(playerName: "Player \(index)"), by: user, at: now)
            _ = try room.apply(.setReady(playerId: user, ready: true), by: user, at: now)
        }
        _ = try room.apply(.startGame, by: users[0], at: now)
        for (index, user) in users.enumerated() {
            _ = try room.apply(.submitScore(playerId: user, round: 1, score: 10 + index), by: user, at: now)
        }
        let request = Array(
            #"{"id":1234,"op":"submitScore","args":{"roomCode":"A1B2C3","playerId":"\#(users[3])","round":1,"score":42}}"#.utf8)

        print("measurement                               bytes      ops/s     µs/op  cpu µs/op")
        measure("decode submitScore request", bytes: request.count) { _ = Request.decode(request) }
        // Part of the decode above: the text parsed once, repeated keys found on the way.
        measure("  of which: parse (and repeated keys)", bytes: request.count) { _ = DuplicateKeyScan.firstDuplicate(in: request) }
        // What the decode cost through Foundation (a reference, measured in the same run).
        let foundation = JSONDecoder()
        measure("same frame with Foundation's JSONDecoder", bytes: request.count) {
            _ = try? foundation.decode(SubmitScoreFrame.self, from: Data(request))
        }
        let view = try EncodedJSON(GameRoom(room))
        measure("encode GameRoom view with JSONEncoder", bytes: view.bytes.count) { _ = try? EncodedJSON(GameRoom(room)) }
        measure("encode GameRoom view by hand (served)", bytes: view.bytes.count) { _ = EncodedJSON(gameRoomOf: room) }
        measure("reply frame around encoded view", bytes: view.bytes.count) { _ = Reply.result(id: .number(1234), view) }
        measure("event frame around encoded view", bytes: view.bytes.count) {
            _ = EventMessage.frame(subscription: 17, event: .room, data: view)
        }
    }

    /// Runs `body` for `seconds` and prints its rate by the wall clock and its cost in this thread's CPU
    /// time: on a shared machine other processes stretch the first, hardly the second.
    private func measure(_ name: String, bytes: Int, _ body: () -> Void) {
        if let only, !name.contains(only) { return }
        for _ in 0..<100 { body() }
        let clock = ContinuousClock()
        var operations = 0
        let start = clock.now
        let cpuStart = Self.threadCPUSeconds()
        let budget = Duration.milliseconds(Int64(seconds * 1000))
        while clock.now - start < budget {
            for _ in 0..<100 { body() }
            operations += 100
        }
        let cpu = Self.threadCPUSeconds() - cpuStart
        let elapsed = (clock.now - start) / .seconds(1)
        let perSecond = Double(operations) / elapsed
        print(
            name.padding(toLength: 40, withPad: " ", startingAt: 0) + " " + String(bytes).leftPadded(6) + " "
                + String(format: "%10.0f", perSecond) + " " + String(format: "%9.1f", 1e6 / perSecond)
                + " " + String(format: "%9.2f", cpu * 1e6 / Double(operations)))
    }

    private static func threadCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}

/// A `submitScore` frame as Foundation's decoder reads it, for the reference line.
private struct SubmitScoreFrame: Decodable {
    let id: RequestID
    let op: String
    let args: SubmitScoreArguments
}
