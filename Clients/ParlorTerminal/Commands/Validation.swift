import ArgumentParser
import ParlorRules

/// Checks made before anything is sent, so a typo reads as a sentence at once.
enum Validation {
    /// The code as `Code`'s game will read it ("a1b2c3 " → "A1B2C3"). Another game's code is pointed to
    /// that game's command instead of being called malformed.
    static func code<Code: ShortCode>(_ text: String, of _: Code.Type, in game: any GameCommands.Type) throws -> String {
        if (try? Code(parsing: text)) == nil, let other = ParlorCommand.game(ofCode: text), ObjectIdentifier(other.game) != ObjectIdentifier(game) {
            throw ValidationError(other.game.codes.pointer(to: other.code))
        }
        return try code(text, as: Code.self)
    }

    /// A code of any kind as the server will read it: trimmed, upper-cased, checked against its space.
    static func code<Code: ShortCode>(_ text: String, as: Code.Type) throws -> String {
        do {
            return try Code(parsing: text).rawValue
        } catch {
            throw ValidationError(error.message)
        }
    }

    /// A name the game seats: at most `maxCharacters` (its rules' limit).
    static func playerName(_ text: String, max maxCharacters: Int, option: String = "--name") throws {
        if case .failure(let problem) = DisplayName.validate(text, maxCharacters: maxCharacters) {
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
