/// A darts match's code: 5 characters from an alphabet without look-alikes (no 0/O, 1/I/L, 2/Z, 5/S,
/// 8/B, U/V), so a code read off a phone across a pub is typed right, the first a digit. Its length
/// tells it apart from a 6-character room code or a 4-letter lobby code, its leading digit from a
/// photo quiz's 5 letters. 5 × 23⁴ ≈ 1.4 million codes.
public struct MatchCode: ShortCode {
    public static let space = CodeSpace(alphabet: "ACDEFGHJKMNPQRTWXY34679", length: 5, first: "34679")
    /// Before codes said their kind, a match's could start with a letter (and be all letters, as a
    /// quiz's is): such codes are still read, by the match operations.
    public static let formerSpaces = [CodeSpace(alphabet: "ACDEFGHJKMNPQRTWXY34679", length: 5)]
    public static let kindName = "Match code"
    public let rawValue: String

    public init(uncheckedRawValue: String) { rawValue = uncheckedRawValue }
}

extension MatchCode {
    /// The code of a match replayed from an upload (`DartsMatch.replay`): it was played offline under
    /// no code. Dashes are outside the alphabet, so no live match can have it, and it never reaches a
    /// client — an uploaded match is shown by its id.
    public static let offline = MatchCode(uncheckedRawValue: "-----")

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
