import ParlorRules

// The word lobby operations (seed `word-lobby-functions.md`) and the game catalog's, each declared
// once. The seed's clients call most of them as Firebase callable functions too.

extension Operation {
    public static let createLobby = OperationDeclaration<CreateLobbyArguments, CreateLobbyResult>("createLobby", callable: true)
    public static let joinLobby = OperationDeclaration<JoinLobbyArguments, JoinLobbyResult>("joinLobby", callable: true)
    /// `startGame {lobbyId, gameId?}`; rummy rooms share the name (`roomCode`).
    public static let startLobbyGame = OperationDeclaration<StartLobbyGameArguments, NoResult>(
        "startGame", claim: OperationClaim(key: "lobbyId", label: "word lobby"), callable: true)
    public static let submitWord = OperationDeclaration<SubmitWordArguments, WordVerdictResult>("submitWord", callable: true)
    public static let leaveLobby = OperationDeclaration<LobbyIdArguments, NoResult>("leaveLobby", callable: true)
    public static let observeLobby = OperationDeclaration<LobbyIdArguments, TimedSubscription>("observeLobby")
    /// A lobby's public view by its code, without a seat (a screen on the wall).
    public static let watchLobby = OperationDeclaration<LobbyCodeArguments, LobbyWatched>("watchLobby")
    public static let removeLobbyPlayer = OperationDeclaration<RemoveLobbyPlayerArguments, NoResult>("removeLobbyPlayer", callable: true)
    public static let rematchLobby = OperationDeclaration<LobbyIdArguments, RematchResult>("rematchLobby", callable: true)
    /// Public, signed in or not (the seed lets the app keep an offline copy).
    public static let getCatalog = OperationDeclaration<GetCatalogArguments, CatalogResult>("getCatalog", access: .anyone, callable: true)
    public static let observeCatalog = OperationDeclaration<EmptyArguments, Subscribed>("observeCatalog", access: .anyone)
}

extension EventName {
    /// A lobby's public view (`LobbyView`).
    public static let lobby = EventName(rawValue: "lobby")
    /// The subscriber's own view of a lobby (`PlayerWordsView`).
    public static let lobbyPrivate = EventName(rawValue: "lobbyPrivate")
    /// The catalog changed (`CatalogResult`).
    public static let catalog = EventName(rawValue: "catalog")
}

extension WireVocabulary {
    public static let wordLobby = WireVocabulary(
        "word lobby",
        operations: [
            Operation.createLobby.erased, Operation.joinLobby.erased, Operation.startLobbyGame.erased, Operation.submitWord.erased,
            Operation.leaveLobby.erased, Operation.observeLobby.erased, Operation.watchLobby.erased, Operation.removeLobbyPlayer.erased,
            Operation.rematchLobby.erased, Operation.getCatalog.erased, Operation.observeCatalog.erased,
        ],
        errorCodes: [
            .lobbyNotFound, .lobbyNotOpen, .roundNotRunning, .notLobbyCreator, .notLobbyMember, .lobbyFull, .tooManyWords,
            .gameNotFound, .noGamesAvailable, .lobbyFinished, .lobbyNotFinished,
        ])
}
