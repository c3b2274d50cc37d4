import ParlorRules

/// `/kick NAME` (a script's `kick NAME`), the rule every game with a host shares, as `RematchRule` is:
/// a game's input reads the verb, its screen names its players and its host, and this finds the player
/// or says why not — before anything is sent. The server decides the rest (when the game allows it).
enum KickRule {
    /// One of a game's seats, as a kick looks it up.
    struct Seat {
        let id: UserID
        let name: String
    }

    /// The name after the verb (names may have spaces), or how to write it.
    static func name(_ rest: String, verb: String) -> Result<String, ScriptCommandError> {
        let name = rest.trimmedLine
        return name.isEmpty ? .failure(ScriptCommandError("\(verb) needs the player's name, e.g. \"\(verb) Bo\".")) : .success(name)
    }

    /// A script's `kick NAME` line (or, with `prefix` "/", what was typed after the `/` of `/kick NAME`):
    /// the name, or how to write it; nil for any other line. For games whose parsers read no names
    /// (tic-tac-toe's).
    static func named(inScript line: String, prefix: String = "") -> Result<String, ScriptCommandError>? {
        let text = line.trimmedLine
        let verbEnd = text.firstIndex(where: \.isWhitespace) ?? text.endIndex
        guard text[..<verbEnd].lowercased() == "kick" else { return nil }
        return name(String(text[verbEnd...]), verb: prefix + "kick")
    }

    /// The id of the player called `name` (letter case aside), or why this terminal cannot remove them:
    /// only the host removes, only someone seated, and not themselves. `place`: "quiz", "match", "game".
    static func target(named name: String, among seats: [Seat], me: UserID?, host: UserID?, place: String) -> Result<UserID, ScriptCommandError> {
        guard let me, me == host else {
            let hostName = seats.first { $0.id == host }?.name
            return .failure(ScriptCommandError("Only the host removes a player; \(hostName ?? "the host") can."))
        }
        let wanted = name.lowercased()
        guard let seat = seats.first(where: { $0.name.lowercased() == wanted }) else {
            return .failure(ScriptCommandError("Nobody called \(name) plays in this \(place)."))
        }
        guard seat.id != me else { return .failure(ScriptCommandError("You cannot remove yourself; /leave instead.")) }
        return .success(seat.id)
    }

    /// For a screen: the id of the player called `name`, or nil once `refused` has been given the reason
    /// to show.
    static func target(
        named name: String, among seats: [Seat], me: UserID?, host: UserID?, place: String, refused: (String) -> Void
    ) -> UserID? {
        switch target(named: name, among: seats, me: me, host: host, place: place) {
        case .success(let player): return player
        case .failure(let refusal):
            refused(refusal.message)
            return nil
        }
    }

    /// Whether a newer view took this terminal's seat away: seated before, not now, and not leaving.
    static func removed(me: UserID?, before: [UserID], after: [UserID], leaving: Bool) -> Bool {
        guard let me, !leaving else { return false }
        return before.contains(me) && !after.contains(me)
    }
}
