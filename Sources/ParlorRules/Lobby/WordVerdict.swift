/// The answer to one submitted word: accepted, or rejected with a sentence saying why.
/// A rejection is an answer, not an error.
public struct WordVerdict: Sendable, Equatable, Codable {
    public let accepted: Bool
    /// The word as submitted, trimmed.
    public let word: String
    public let reason: String?

    public init(accepted: Bool, word: String, reason: String? = nil) {
        self.accepted = accepted
        self.word = word
        self.reason = reason
    }

    public static func accept(_ word: String) -> WordVerdict { WordVerdict(accepted: true, word: word) }

    public static func reject(_ word: String, _ reason: String) -> WordVerdict {
        WordVerdict(accepted: false, word: word, reason: reason)
    }
}
