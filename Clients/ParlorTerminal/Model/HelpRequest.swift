/// `/help`, `/?` or a lone `?` typed on a screen whose lines are words, visits or guesses: none of those
/// can be a word, a visit or a place, so the line asks for the keys instead of being sent.
enum HelpRequest {
    static func matches(_ line: String) -> Bool {
        let text = line.trimmedLine.lowercased()
        return text == "?" || text == "/?" || text == "/help" || text == "/h"
    }

    /// The message line's sentence: what typing does, then the commands.
    static func sentence(typing: String, commands: String) -> String {
        "Type \(typing) and press Enter; or \(commands); Esc quits."
    }
}
