import ParlorRules
import ParlorWire

/// A room as the store keeps it: `RummyRoom`'s own Codable shape, so the ordinary decoder reads it back
/// at start-up, written by the same hand-written writer as the public view (`RummyRoomJSON`).
enum StoredRoomJSON {
    static func encode(_ room: RummyRoom) -> String {
        String(decoding: RummyRoomJSON.write(room, as: .stored).bytes, as: UTF8.self)
    }
}
