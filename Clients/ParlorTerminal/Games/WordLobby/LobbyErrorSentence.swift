import ParlorClient
import ParlorWire

/// The sentence a person sees when a lobby request fails. The server's own sentences speak of "the
/// lobby"; here the code and the names on screen are known, so some are said more precisely
/// ("Lobby GDTS is full (12 of 12 players).", "The round is over; wait for the next one.").
enum LobbyErrorSentence {
    static func sentence(_ error: ParlorClientError, action: LobbyAction?, code: String, state: LobbyScreenState? = nil) -> String {
        guard case .server(let errorCode, _, let message) = error else { return error.description }
        switch errorCode {
        case .roundNotRunning:
            return roundNotRunning(state)
        case .notLobbyCreator:
            guard let name = state?.creatorName else { return error.description }
            return "Only the lobby's creator (\(name)) can start a round."
        case .gameNotFound:
            return finished(message) + " `parlor lobby games` lists the games."
        case .lobbyFull, .lobbyNotOpen:
            let prefix = "The lobby "
            guard message.hasPrefix(prefix) else { return error.description }
            return finished("Lobby \(code) " + message.dropFirst(prefix.count))
        default:
            return error.description
        }
    }

    /// With a full stop at the end.
    private static func finished(_ text: String) -> String {
        text.hasSuffix(".") || text.hasSuffix("!") || text.hasSuffix("?") ? text : text + "."
    }

    /// A word came between rounds or after the deadline.
    private static func roundNotRunning(_ state: LobbyScreenState?) -> String {
        guard let state, let lobby = state.lobby else { return "No round is running." }
        if lobby.status == .game || lobby.lastRound != nil { return "The round is over; wait for the next one." }
        if state.isCreator { return "No round is running yet; start one first." }
        return "No round is running yet; wait for \(state.creatorName ?? "the creator") to start one."
    }
}
