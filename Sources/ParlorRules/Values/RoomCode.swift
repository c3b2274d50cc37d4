/// A rummy room's code: exactly 6 characters `A-Z0-9` (e.g. "A1B2C3").
public struct RoomCode: ShortCode {
    public static let space = CodeSpace.roomCodes
    public static let kindName = "Room code"
    public let rawValue: String

    public init(uncheckedRawValue: String) { rawValue = uncheckedRawValue }
}

extension RoomCode {
    /// Parses a code a request carried, failing as the room operations report it (`invalidRoomCode`).
    public init(validating input: String) throws(RoomError) {
        do {
            self = try RoomCode(parsing: input)
        } catch {
            throw .invalidRoomCode(error)
        }
    }
}
