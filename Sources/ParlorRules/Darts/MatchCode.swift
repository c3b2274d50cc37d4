/// A darts match's code: 5 characters from an alphabet without look-alikes (no 0/O, 1/I/L, 2/Z, 5/S,
/// 8/B, U/V), so a code read off a phone across a pub is typed right, and its length alone tells it
/// apart from a 6-character room code or a 4-letter lobby code. 23⁵ ≈ 6.4 million codes.
public struct MatchCode: ShortCode {
    public static let space = CodeSpace(alphabet: "ACDEFGHJKMNPQRTWXY34679", length: 5)
    public static let kindName = "Match code"
    public let rawValue: String

    public init(uncheckedRawValue: String) { rawValue = uncheckedRawValue }
}

extension MatchCode {
    /// Parses a code a request carried, failing as the match operations report it (`invalidInput`
    /// naming `code`).
    public init(validating input: String) throws(DartsError) {
        do {
            self = try MatchCode(parsing: input)
        } catch {
            throw .invalidInput(field: "code", reason: error.message)
        }
    }
}
