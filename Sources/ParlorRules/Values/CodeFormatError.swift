/// Why a room or lobby code could not be parsed.
public struct CodeFormatError: Error, Sendable, Equatable {
    public enum Problem: Sendable, Equatable {
        case wrongLength(expected: Int, got: Int)
        case invalidCharacter(Character)
        /// A character of the alphabet that this kind's codes do not start with.
        case invalidFirstCharacter(Character, allowed: [Character])
    }

    /// "Room code" or "Lobby code", for messages.
    public let kind: String
    public let problem: Problem

    public init(kind: String, problem: Problem) {
        self.kind = kind
        self.problem = problem
    }

    public var message: String {
        switch problem {
        case .wrongLength(let expected, let got):
            return "\(kind) must be exactly \(expected) characters (got \(got))."
        case .invalidCharacter(let character):
            let shown = character.unicodeScalars.allSatisfy { $0.properties.generalCategory != .control }
                ? "\"\(character)\"" : "a control character"
            return "\(kind) contains \(shown); only the characters of the code alphabet are allowed."
        case .invalidFirstCharacter(let character, let allowed):
            return "\(kind) starts with \"\(character)\"; it starts with one of \(String(allowed))."
        }
    }
}
