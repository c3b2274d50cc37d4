/// The sentence left on the terminal after `q`: the command that comes back — to the seat for a player,
/// to watching for a spectator — with the `--server` and `--profile` it needs.
enum ComeBackCommand {
    /// `game`: the words before the verb (`["parlor"]`, `["parlor", "darts"]`); `place`: "room", "match"…
    static func farewell(game: [String], place: String, code: String, seated: Bool, clientArguments: [String]) -> String {
        let arguments = clientArguments.map(shellQuoted)
        let command = (game + [seated ? "join" : "watch", code] + arguments).joined(separator: " ")
        return seated ? "You are still in \(place) \(code); \(command) brings you back." : "\(command) watches \(place) \(code) again."
    }

    /// A word as a shell reads it back: as it is when plain, else in single quotes.
    static func shellQuoted(_ text: String) -> String {
        let plain = !text.isEmpty && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_.:/@+,=".contains($0)) }
        return plain ? text : "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
