/// A word lobby's code: exactly 4 letters `A-Z` (e.g. "AXDF").
public struct LobbyCode: ShortCode {
    public static let space = CodeSpace.lobbyCodes
    public static let kindName = "Lobby code"
    public let rawValue: String

    public init(uncheckedRawValue: String) { rawValue = uncheckedRawValue }
}
