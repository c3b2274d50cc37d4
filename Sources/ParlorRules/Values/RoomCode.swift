/// A rummy room's code: exactly 6 characters `A-Z0-9` (e.g. "A1B2C3").
public struct RoomCode: ShortCode {
    public static let space = CodeSpace.roomCodes
    public static let kindName = "Room code"
    public let rawValue: String

    public init(uncheckedRawValue: String) { rawValue = uncheckedRawValue }
}
