// `listHistory`: the caller's finished games of every kind, with the arguments of `listGames`
// (`userId?`, `before?`, `limit?`: `ListGamesArguments`).

extension OperationName {
    public static let listHistory = OperationName("listHistory")
}

extension Operation {
    public static func listHistory(_ arguments: ListGamesArguments) -> Operation { Operation(.listHistory, arguments) }
}

extension OperationSpec {
    /// Operations of the kernel over every kind of game.
    static let history: [OperationSpec] = [
        OperationSpec(.listHistory, ListGamesArguments.self),
    ]
}
