/// What applying one action produced, besides the new state: the caller's answer, what changed, and
/// what the server must do about it.
public struct GameOutcome<Game: GameRules>: Sendable {
    /// The answer to the caller beyond the new state (a word's verdict); nil when there is none.
    public var reply: Game.Reply?
    /// What changed; empty when nothing did.
    public var events: [Game.Event]
    /// Work for the server, carried out once the new state is durable (deletion before it is stored).
    public var effects: [GameEffect<Game.Action>]

    public init(reply: Game.Reply? = nil, events: [Game.Event] = [], effects: [GameEffect<Game.Action>] = []) {
        self.reply = reply
        self.events = events
        self.effects = effects
    }

    /// The outcome asks for the game to be deleted.
    public var deletes: Bool { effects.contains { if case .delete = $0 { true } else { false } } }

    /// The finished game the outcome files in history, if any.
    public var archive: GameArchive? {
        for case .archive(let archive) in effects { return archive }
        return nil
    }
}
