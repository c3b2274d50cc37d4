import Foundation
import ParlorRules
import ParlorWire

/// Rummy scorekeeper rooms on the kernel: 6-character codes that are also the rooms' ids, the
/// `room` event, and the hand-written stored form (a room is saved on every change).
struct RummyGame: GameDefinition {
    typealias Rules = RummyRoom
    typealias Code = RoomCode

    static let kind = GameKind("rummy", noun: "room", plural: "rooms")
    /// Every move is public once the game is over: its record shows the actions.
    let recordsPublicActions = true

    let codeSpace = CodeSpace.roomCodes
    let maxGames: Int

    func newID(code: RoomCode) -> String { code.rawValue }
    func id(of room: RummyRoom) -> String { room.id.rawValue }
    func code(of room: RummyRoom) -> RoomCode { room.id }

    func parse(code: String) throws(WireError) -> RoomCode {
        do {
            return try RoomCode(validating: code)
        } catch {
            throw WireError(error)
        }
    }

    func notFound(code: RoomCode) -> WireError { WireError(RoomError.roomNotFound(code: code.rawValue)) }
    func notFound(id: String) -> WireError { WireError(RoomError.roomNotFound(code: id)) }
    func wireError(_ failure: RoomError) -> WireError { WireError(failure) }

    let publicEvent = EventName.room

    func encodePublicView(_ room: RummyRoom, at now: Instant) throws(WireError) -> EncodedJSON {
        EncodedJSON(gameRoomOf: room)
    }

    static func storedJSON(_ room: RummyRoom) throws(StoreError) -> String { StoredRoomJSON.encode(room) }

    static func decodeStored(_ json: String) throws -> RummyRoom {
        try JSONDecoder().decode(RummyRoom.self, from: Data(json.utf8))
    }
}
