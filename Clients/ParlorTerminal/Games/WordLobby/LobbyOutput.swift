import ParlorClient
import ParlorRules
import ParlorWire

/// What a lobby session reports. On a terminal it is all drawn on the screen; otherwise each becomes one
/// JSON object on a line of its own:
///
///     {"event":"joined","code":"GDTS","lobbyId":"…","userId":"…"}
///     {"event":"status","state":"connected","userId":"…"}
///     {"event":"lobby","lobby":{…the public view, serverTime included…}}       null once deleted
///     {"event":"private","lobbyId":"…","round":1,"version":5,"words":[{"accepted":true,"word":"alpha"}]}
///     {"event":"result","action":"word","accepted":false,"word":"omegas","reason":"…"}
///     {"event":"result","action":"start"}
///     {"event":"roundEnded","results":{…the lobby's lastRound…}}
///     {"event":"error","action":"word","code":"ROUND_NOT_RUNNING","message":"The round is over; wait for the next one."}
///     {"event":"left","code":"GDTS"}
public enum LobbyOutput: Sendable, Equatable {
    /// Seated, after create or join.
    case joined(code: String, lobbyId: String, userId: UserID?)
    case status(ConnectionState)
    /// A newer public view; nil once the lobby was deleted.
    case lobby(LobbyView?)
    /// Your own words changed.
    case playerWords(PlayerWordsView)
    /// An action was applied; `verdict` is the server's judgement of a submitted word.
    case result(action: String, verdict: WordVerdictResult?)
    /// A round ended while we watched: its results, as every member sees them.
    case roundEnded(LobbyView.RoundResult)
    /// Something failed: a sentence for a person, and the server's code when it has one.
    case error(action: String?, code: String?, message: String)
    /// Left the lobby; the session ends.
    case left(code: String)
    /// The creator took your seat away.
    case removed(code: String)
    /// The creator started a rematch in lobby `code`; the session goes on there.
    case rematch(code: String)

    /// The JSON line (without the newline).
    public var jsonLine: String { JSONLine.encode(LobbyJSONForm(self)) }
}

extension LobbyOutput: GameOutput {}

private struct LobbyJSONForm: Encodable {
    let output: LobbyOutput

    init(_ output: LobbyOutput) { self.output = output }

    enum Key: String, SessionJSONKey {
        case event, state, userId, attempt, reason, action, code, message
        case lobbyId, lobby, round, version, words, accepted, word, results
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        switch output {
        case .joined(let code, let lobbyId, let userId):
            try container.encode("joined", forKey: .event)
            try container.encode(code, forKey: .code)
            try container.encode(lobbyId, forKey: .lobbyId)
            try container.encodeIfPresent(userId, forKey: .userId)
        case .status(let state):
            try container.encodeStatus(state)
        case .lobby(let lobby):
            try container.encode("lobby", forKey: .event)
            try container.encode(lobby, forKey: .lobby)  // null once deleted
        case .playerWords(let words):
            try container.encode("private", forKey: .event)
            try container.encode(words.lobbyId, forKey: .lobbyId)
            try container.encodeIfPresent(words.round, forKey: .round)
            try container.encode(words.version, forKey: .version)
            try container.encode(words.words, forKey: .words)
        case .result(let action, let verdict):
            try container.encode("result", forKey: .event)
            try container.encode(action, forKey: .action)
            if let verdict {
                try container.encode(verdict.accepted, forKey: .accepted)
                try container.encode(verdict.word, forKey: .word)
                try container.encodeIfPresent(verdict.reason, forKey: .reason)
            }
        case .roundEnded(let results):
            try container.encode("roundEnded", forKey: .event)
            try container.encode(WireRoundResults(results), forKey: .results)
        case .error(let action, let code, let message):
            try container.encodeError(action: action, code: code, message: message)
        case .left(let code):
            try container.encodeLeft(code: code)
        case .removed(let code):
            try container.encodeRemoved(code: code)
        case .rematch(let code):
            try container.encodeRematch(code: code)
        }
    }
}
