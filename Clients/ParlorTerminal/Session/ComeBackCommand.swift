/// The sentence left on the terminal after `q`: the command that comes back — to the seat for a player,
/// to watching for a spectator — with the `--server` and `--profile` it needs.
enum ComeBackCommand {
    /// `game`: the words before the verb (`["parlor"]`, `["parlor", "darts"]`); `place`: "room", "match"…
    static func farewell(game: [String], place: String, code: String, seated: Bool, clientArguments: [String]) -> String {
        let arguments = clientArguments.map(LobbyGame.shellQuoted)
        let command = (game + [seated ? "join" : "watch", code] + arguments).joined(separator: " ")
        return seated ? "You are still in \(place) \(code); \(command) brings you back." : "\(command) watches \(place) \(code) again."
    }
}
