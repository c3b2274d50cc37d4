/// Why a darts match refused an action. Each case is one wire code (`ParlorWire` maps them); never
/// rename one that has shipped.
public enum DartsError: Error, Sendable, Equatable {
    case matchNotFound(code: String)
    /// The match seats no one more.
    case matchFull(capacity: Int)
    /// `action` completes "Only the host can …", e.g. "start the match".
    case notHost(action: String)
    /// Someone else is to throw: `expected` is the name of the player whose turn it is.
    case notYourTurn(expected: String)
    /// A visit that is not darts: `reason` is a sentence naming the bad dart or total.
    case invalidDarts(reason: String)
    case playerNotFound(playerId: String)
    /// `reason` is a full sentence.
    case invalidState(reason: String)
    /// `reason` is a full sentence naming `field`.
    case invalidInput(field: String, reason: String)

    /// A sentence for the person who asked.
    public var message: String {
        switch self {
        case .matchNotFound(let code): "Match \(Self.clip(code)) was not found."
        case .matchFull(let capacity): "The match is full (\(capacity) of \(capacity) players)."
        case .notHost(let action): "Only the host can \(action)."
        case .notYourTurn(let expected): "It is \(expected)'s turn to throw."
        case .invalidDarts(let reason): reason
        case .playerNotFound(let playerId): "Player \(Self.clip(playerId)) is not in this match."
        case .invalidState(let reason): reason
        case .invalidInput(_, let reason): reason
        }
    }

    /// Echoed input is cut short so a huge argument cannot bloat a reply.
    static func clip(_ text: String) -> String {
        text.count <= 12 ? text : String(text.prefix(12)) + "…"
    }
}
