/// Validation shared by every display name (rummy player names, lobby usernames).
///
/// Names are trimmed, counted in Characters (so "👩‍👩‍👧" is one), and may not contain control characters,
/// line or paragraph separators, or bidirectional overrides (which can disguise a name). Joiners and
/// variation selectors stay allowed: emoji need them.
public enum DisplayName {
    public enum Problem: Error, Sendable, Equatable {
        case empty
        case tooLong(count: Int, limit: Int)
        case forbiddenCharacter
    }

    /// The trimmed name, or why it is not acceptable.
    public static func validate(_ raw: String, maxCharacters: Int) -> Result<String, Problem> {
        let trimmed = raw.trimmingWhitespace()
        if trimmed.isEmpty { return .failure(.empty) }
        if trimmed.unicodeScalars.contains(where: isForbidden) { return .failure(.forbiddenCharacter) }
        let count = trimmed.count
        if count > maxCharacters { return .failure(.tooLong(count: count, limit: maxCharacters)) }
        return .success(trimmed)
    }

    /// A sentence about `field`, e.g. "playerName must be at most 50 characters (got 51)."
    public static func sentence(for problem: Problem, field: String) -> String {
        switch problem {
        case .empty: return "\(field) must not be empty."
        case .tooLong(let count, let limit): return "\(field) must be at most \(limit) characters (got \(count))."
        case .forbiddenCharacter: return "\(field) must not contain control or formatting characters."
        }
    }

    private static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .lineSeparator, .paragraphSeparator: return true
        default: return (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
        }
    }
}
