import ArgumentParser
import ParlorRules

/// Checks made before anything is sent, so a typo reads as a sentence at once.
enum Validation {
    /// The code as the server will read it ("a1b2c3 " → "A1B2C3").
    static func roomCode(_ text: String) throws -> String {
        try code(text, as: RoomCode.self)
    }

    /// A code of any kind as the server will read it: trimmed, upper-cased, checked against its space.
    static func code<Code: ShortCode>(_ text: String, as: Code.Type) throws -> String {
        do {
            return try Code(parsing: text).rawValue
        } catch {
            throw ValidationError(error.message)
        }
    }

    static func playerName(_ text: String, option: String = "--name") throws {
        if case .failure(let problem) = DisplayName.validate(text, maxCharacters: RummyRules.nameMaxCharacters) {
            throw ValidationError(DisplayName.sentence(for: problem, field: option))
        }
    }

    static func range(_ value: Int, _ range: ClosedRange<Int>, option: String) throws {
        guard range.contains(value) else {
            throw ValidationError("\(option) must be between \(range.lowerBound) and \(range.upperBound) (got \(value)).")
        }
    }
}

/// The room-code argument every room command takes, checked and upper-cased before anything is sent.
public struct RoomCodeArgument: ParsableArguments {
    @Argument(help: ArgumentHelp("The room's 6-character code.", valueName: "code"))
    public var code: String

    public init() {}

    public mutating func validate() throws { code = try Validation.roomCode(code) }
}
