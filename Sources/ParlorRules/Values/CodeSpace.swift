/// The set of short codes of one kind: every string of `length` characters drawn from `alphabet`, the
/// first from `first` (the whole alphabet unless a kind narrows it, so its codes say their kind).
///
/// Injectable so a test can use a space small enough to exhaust.
public struct CodeSpace: Sendable, Equatable {
    public let alphabet: [Character]
    public let length: Int
    /// The characters a code may start with.
    public let first: [Character]

    /// - Precondition: a non-empty alphabet of distinct characters, a positive length, and first
    ///   characters drawn from it (programmer error otherwise).
    public init(alphabet: [Character], length: Int, first: [Character]? = nil) {
        precondition(!alphabet.isEmpty && Set(alphabet).count == alphabet.count, "alphabet must be non-empty and distinct")
        precondition(length > 0, "length must be positive")
        let first = first ?? alphabet
        precondition(!first.isEmpty && Set(first).count == first.count && first.allSatisfy(alphabet.contains), "first must be distinct characters of the alphabet")
        self.alphabet = alphabet
        self.length = length
        self.first = first
    }

    public init(alphabet: String, length: Int, first: String? = nil) {
        self.init(alphabet: Array(alphabet), length: length, first: first.map(Array.init))
    }

    /// `A-Z0-9`, 6 characters: 36⁶ ≈ 2.2 billion room codes.
    public static let roomCodes = CodeSpace(alphabet: "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", length: 6)
    /// `A-Z`, 4 letters: 26⁴ = 456,976 lobby codes.
    public static let lobbyCodes = CodeSpace(alphabet: "ABCDEFGHIJKLMNOPQRSTUVWXYZ", length: 4)

    /// How many codes the space holds, or nil when that does not fit in an `Int`.
    public var size: Int? {
        var total = first.count
        for _ in 1..<length {
            let (product, overflow) = total.multipliedReportingOverflow(by: alphabet.count)
            if overflow { return nil }
            total = product
        }
        return total
    }

    /// The code at `index` (0..<size), most significant character first.
    func code(at index: Int) -> String {
        var remaining = index
        var characters = [Character](repeating: alphabet[0], count: length)
        for position in stride(from: length - 1, through: 1, by: -1) {
            characters[position] = alphabet[remaining % alphabet.count]
            remaining /= alphabet.count
        }
        characters[0] = first[remaining % first.count]
        return String(characters)
    }

    func randomCode(using generator: inout some RandomNumberGenerator) -> String {
        var characters: [Character] = []
        characters.reserveCapacity(length)
        characters.append(first[Int.random(in: 0..<first.count, using: &generator)])
        for _ in 1..<length {
            characters.append(alphabet[Int.random(in: 0..<alphabet.count, using: &generator)])
        }
        return String(characters)
    }

    /// Validates already-normalised text against this space.
    func check(_ text: String, kind: String) throws(CodeFormatError) {
        let count = text.count
        guard count == length else {
            throw CodeFormatError(kind: kind, problem: .wrongLength(expected: length, got: count))
        }
        if let bad = text.first(where: { !alphabet.contains($0) }) {
            throw CodeFormatError(kind: kind, problem: .invalidCharacter(bad))
        }
        if let start = text.first, !first.contains(start) {
            throw CodeFormatError(kind: kind, problem: .invalidFirstCharacter(start, allowed: first))
        }
    }
}
