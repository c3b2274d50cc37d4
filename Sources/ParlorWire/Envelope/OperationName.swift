/// Every operation's name on the wire (`"op"`), exactly as the seeds spell them.
public enum OperationName: String, Sendable, CaseIterable, Codable {
    case hello
    case createRoom, joinRoom, setReady, startGame, leaveRoom, observeRoom, submitScore, nextRound, getRoom, listGames
    case createLobby, joinLobby, submitWord, leaveLobby, observeLobby
    case getCatalog, observeCatalog
    case unsubscribe
}
