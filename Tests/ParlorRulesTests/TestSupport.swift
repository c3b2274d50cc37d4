import Foundation
import Testing
@testable import ParlorRules

/// Fixed users: `user(1)`, `user(2)`, …
func user(_ n: Int) -> UserID {
    UserID(String(format: "00000000-0000-4000-8000-%012d", n))!
}

let t0 = Instant(millisecondsSinceEpoch: 1_767_225_600_000)  // 2026-01-01T00:00:00Z

func roomError(_ body: () throws -> Void) -> RoomError? {
    do {
        try body()
        return nil
    } catch {
        return error as? RoomError
    }
}

func lobbyError(_ body: () throws -> Void) -> LobbyError? {
    do {
        try body()
        return nil
    } catch {
        return error as? LobbyError
    }
}

func expectRoomError(
    _ kind: RoomError.Kind, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void
) {
    let error = roomError(body)
    #expect(error?.kind == kind, "expected \(kind), got \(String(describing: error))", sourceLocation: sourceLocation)
}

func encodeJSON(_ value: some Encodable) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return String(decoding: try encoder.encode(value), as: UTF8.self)
}
