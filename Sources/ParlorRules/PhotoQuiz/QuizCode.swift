/// A photo quiz's code: 5 letters without look-alikes (no I, L, O, S, U, V, Z, B), read off a phone
/// across a table; letters only, so it never looks like a room, lobby or match code with digits.
/// 18⁵ ≈ 1.9 million codes.
public struct QuizCode: ShortCode {
    public static let space = CodeSpace(alphabet: "ACDEFGHJKMNPQRTWXY", length: 5)
    public static let kindName = "Quiz code"
    public let rawValue: String

    public init(uncheckedRawValue: String) { rawValue = uncheckedRawValue }
}

extension QuizCode {
    /// Parses a code a request carried, failing as the quiz operations report it (`invalidInput`
    /// naming `code`).
    public init(validating input: String) throws(PhotoQuizError) {
        do {
            self = try QuizCode(parsing: input)
        } catch {
            throw .invalidInput(field: "code", reason: error.message)
        }
    }
}
