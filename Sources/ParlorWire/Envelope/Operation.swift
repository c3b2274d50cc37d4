/// One request's operation with its typed arguments.
public enum Operation: Sendable, Equatable {
    case hello(HelloArguments)
    case createRoom(CreateRoomArguments)
    case joinRoom(JoinRoomArguments)
    case setReady(SetReadyArguments)
    case startGame(StartGameArguments)
    case leaveRoom(LeaveRoomArguments)
    case observeRoom(CodeArguments)
    case unsubscribe(UnsubscribeArguments)
    case submitScore(SubmitScoreArguments)
    case nextRound(RoomCodeArguments)
    case getRoom(CodeArguments)
    case listGames(ListGamesArguments)
    case createLobby(CreateLobbyArguments)
    case joinLobby(JoinLobbyArguments)
    case submitWord(SubmitWordArguments)
    case leaveLobby(LobbyIdArguments)
    case observeLobby(LobbyIdArguments)
    case getCatalog(GetCatalogArguments)
    case observeCatalog(EmptyArguments)

    public var name: OperationName {
        switch self {
        case .hello: .hello
        case .createRoom: .createRoom
        case .joinRoom: .joinRoom
        case .setReady: .setReady
        case .startGame: .startGame
        case .leaveRoom: .leaveRoom
        case .observeRoom: .observeRoom
        case .unsubscribe: .unsubscribe
        case .submitScore: .submitScore
        case .nextRound: .nextRound
        case .getRoom: .getRoom
        case .listGames: .listGames
        case .createLobby: .createLobby
        case .joinLobby: .joinLobby
        case .submitWord: .submitWord
        case .leaveLobby: .leaveLobby
        case .observeLobby: .observeLobby
        case .getCatalog: .getCatalog
        case .observeCatalog: .observeCatalog
        }
    }

    var arguments: any Encodable & Sendable {
        switch self {
        case .hello(let args): args
        case .createRoom(let args): args
        case .joinRoom(let args): args
        case .setReady(let args): args
        case .startGame(let args): args
        case .leaveRoom(let args): args
        case .observeRoom(let args): args
        case .unsubscribe(let args): args
        case .submitScore(let args): args
        case .nextRound(let args): args
        case .getRoom(let args): args
        case .listGames(let args): args
        case .createLobby(let args): args
        case .joinLobby(let args): args
        case .submitWord(let args): args
        case .leaveLobby(let args): args
        case .observeLobby(let args): args
        case .getCatalog(let args): args
        case .observeCatalog(let args): args
        }
    }
}
