/// A word lobby's code: exactly 4 letters `A-Z` (e.g. "AXDF").
public struct LobbyCode: ShortCode {
    public static let space = CodeSpace.lobbyCodes
    public static let kindName = "Lobby code"
    public let rawValue: String

    public init(uncheckedRawValue: String) { rawValue = uncheckedRawValue }
}

extension LobbyCode {
    /// Parses a code a request carried, failing as the lobby operations report it
    /// (`invalidArgument` naming `lobbyCode`).
    public init(validating input: String) throws(LobbyError) {
        do {
            self = try LobbyCode(parsing: input)
        } catch {
            throw .invalidArgument(field: "lobbyCode", reason: error.message)
        }
    }
}
