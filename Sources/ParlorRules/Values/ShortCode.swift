/// A short human-typed code (room codes, lobby codes).
///
/// Parsing trims surrounding whitespace and uppercases, so "a1b2c3 " reads as "A1B2C3": people read
/// codes aloud and type them on phones whose keyboards start in lowercase. Anything else is rejected.
public protocol ShortCode: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The codes of this kind; generation draws from it unless a test injects another. Its shape is
    /// this kind's alone: a code of it is no other kind's (`hasShape`).
    static var space: CodeSpace { get }
    /// Spaces codes were once given out from, still read so those codes keep working (a shape other
    /// kinds' codes may share). None by default.
    static var formerSpaces: [CodeSpace] { get }
    /// "Room code", "Lobby code".
    static var kindName: String { get }
    var rawValue: String { get }
    /// Wraps text already known to be a valid code (e.g. read back from the store). Use
    /// `init(parsing:)` for anything a person or the network supplied.
    init(uncheckedRawValue: String)
}

extension ShortCode {
    public static var formerSpaces: [CodeSpace] { [] }

    /// Parses user input: trimmed, uppercased, then checked against `space` (or a former space).
    public init(parsing input: String) throws(CodeFormatError) {
        let normalized = input.trimmingWhitespace().uppercased()
        do {
            try Self.space.check(normalized, kind: Self.kindName)
        } catch {
            guard Self.formerSpaces.contains(where: { (try? $0.check(normalized, kind: Self.kindName)) != nil }) else { throw error }
        }
        self.init(uncheckedRawValue: normalized)
    }

    /// Whether `input` has the shape of this kind's codes as they are given out now — which no other
    /// kind's codes have, so a client tells a code's kind without asking the server.
    public static func hasShape(_ input: String) -> Bool {
        (try? space.check(input.trimmingWhitespace().uppercased(), kind: kindName)) != nil
    }

    public var description: String { rawValue }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        do {
            self = try Self(parsing: text)
        } catch {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: error.message)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

extension String {
    /// Drops leading and trailing whitespace and newlines (Unicode-aware, no Foundation).
    public func trimmingWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0.isWhitespace }
        guard let first = firstIndex(where: { !isSpace($0) }) else { return "" }
        let last = lastIndex(where: { !isSpace($0) }) ?? first
        return String(self[first...last])
    }
}
