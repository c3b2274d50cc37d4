import Foundation
import ParlorRules
import Testing
@testable import ParlorWire

/// The hand-written room encoder must say exactly what `JSONEncoder` says.
@Suite struct FastEncodingTests {
    /// Rooms in every state: just created, joined, started with scores, finished with a settlement,
    /// finished and then left, and names that need escaping.
    static func rooms() throws -> [RummyRoom] {
        let users = (0..<5).map { UserID(UUID(uuidString: String(format: "00000000-0000-4000-8000-%012d", $0))!) }
        let t0 = Instant(millisecondsSinceEpoch: 1_800_000_000_123)
        var rooms: [RummyRoom] = []
        var room = try RummyRoom.create(
            code: RoomCode(uncheckedRawValue: "Q9Z3X1"), pointLimit: 120, pointValue: 37, playerCount: 5,
            creator: users[0], playerName: #"Ann "the \ quoted" Émile 🎲"#, at: t0)
        rooms.append(room)
        for (index, user) in users.enumerated().dropFirst() {
            _ = try room.apply(.join(playerName: "Player/\(index) κόσμε"), by: user, at: t0)
            _ = try room.apply(.setReady(playerId: user, ready: true), by: user, at: t0)
        }
        rooms.append(room)
        _ = try room.apply(.startGame, by: users[0], at: t0)
        rooms.append(room)
        for (index, user) in users.enumerated() {
            _ = try room.apply(.submitScore(playerId: user, round: 1, score: [0, 5, 130, 44, 1000][index]), by: user, at: t0)
        }
        rooms.append(room)
        _ = try room.apply(.nextRound, by: users[0], at: Instant(millisecondsSinceEpoch: 1_800_000_999_001))
        #expect(room.isFinished)
        rooms.append(room)
        _ = try room.apply(.leave(playerId: users[2]), by: users[2], at: t0)
        rooms.append(room)
        return rooms
    }

    @Test func gameRoomViewMatchesJSONEncoderByteForByte() throws {
        for room in try Self.rooms() {
            let fast = EncodedJSON(gameRoomOf: room)
            let slow = try EncodedJSON(GameRoom(room))
            #expect(String(decoding: fast.bytes, as: UTF8.self) == String(decoding: slow.bytes, as: UTF8.self))
            #expect(try WireJSON.decode(GameRoom.self, from: fast.bytes) == GameRoom(room))
        }
    }

    @Test func integersOfEverySizeAndSign() {
        for value in [0, 1, 9, 10, 99, 100, 12345, -1, -987654321, Int.max, Int.min + 1] {
            var json = JSONWriter()
            json.int(value)
            #expect(String(decoding: json.bytes, as: UTF8.self) == String(value))
        }
        var json = JSONWriter()
        json.beginObject()
        json.key("a")
        json.beginArray()
        json.bool(true)
        json.null()
        json.string("x\u{1}\u{8}\u{c}\n")
        json.endArray()
        json.field("b", false)
        json.endObject()
        #expect(String(decoding: json.bytes, as: UTF8.self) == #"{"a":[true,null,"x\u0001\b\f\n"],"b":false}"#)
    }
}
