import ArgumentParser
import ParlorRules

/// Checks made before anything is sent, so a typo reads as a sentence at once.
enum Validation {
    /// The code as the server will read it ("a1b2c3 " → "A1B2C3"). Another game's code is pointed to
    /// that game's command instead of being called malformed.
    static func roomCode(_ text: String) throws -> String {
        if (try? RoomCode(parsing: text)) == nil, let pointer = otherGamesCommand(for: text) {
            throw ValidationError(pointer)
        }
        return try code(text, as: RoomCode.self)
    }

    /// "GDTS is a word lobby's code; use `parlor lobby join GDTS`." for a code of another game's shape.
    static func otherGamesCommand(for text: String) -> String? {
        if let lobby = try? LobbyCode(parsing: text) {
            return "\(lobby) is a word lobby's code (4 letters); use `parlor lobby join \(lobby)`."
        }
        let match = try? MatchCode(parsing: text)
        let quiz = try? QuizCode(parsing: text)
        switch (match, quiz) {
        case (let match?, _?):
            return "\(match) is a darts match's or photo quiz's code (5 characters); use `parlor darts join \(match)` or `parlor quiz join \(match)`."
        case (let match?, nil):
            return "\(match) is a darts match's code (5 characters); use `parlor darts join \(match)`."
        case (nil, let quiz?):
            return "\(quiz) is a photo quiz's code (5 characters); use `parlor quiz join \(quiz)`."
        case (nil, nil):
            return nil
        }
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

    /// `text` must be the raw value of one of `Rule`'s cases.
    static func oneOf<Rule: RawRepresentable & CaseIterable>(_ text: String, _: Rule.Type, option: String) throws
    where Rule.RawValue == String {
        guard Rule(rawValue: text) == nil else { return }
        let names = Rule.allCases.map(\.rawValue)
        throw ValidationError("\(option) must be \(names.dropLast().joined(separator: ", ")) or \(names.last ?? "") (got \"\(text)\").")
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
