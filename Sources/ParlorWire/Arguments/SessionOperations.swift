// The operations of every connection and every game: signing in, ending a subscription, and the
// history of every kind of game. Over HTTP, `POST /session` signs in.

extension Operation {
    /// `hello {token?, jwt?}`: sign in with an account (a JWT from an issuer the server trusts), resume
    /// the user a valid token names, or sign in as a new anonymous user.
    public static let hello = OperationDeclaration<HelloArguments, HelloResult>("hello", access: .anyone)
    /// `refreshAuth {jwt}`: a fresh JWT of the connection's account, before or after its `tokenExpired`
    /// event, keeps the connection signed in.
    public static let refreshAuth = OperationDeclaration<RefreshAuthArguments, RefreshAuthResult>("refreshAuth")
    /// `linkAccount {jwt}`: the caller's Parlor identity (its profile, history and friends) becomes the
    /// account's, once; the account must not have a Parlor user of its own yet. Also `POST /account/link`.
    public static let linkAccount = OperationDeclaration<LinkAccountArguments, LinkAccountResult>(
        "linkAccount", routes: [.post("/account/link")])
    /// `unsubscribe {subscription}`: its `end` event goes out before the reply.
    public static let unsubscribe = OperationDeclaration<UnsubscribeArguments, NoResult>("unsubscribe", access: .anyone)
    /// The caller's finished games of every kind, newest first.
    public static let listHistory = OperationDeclaration<ListGamesArguments, ListHistoryResult>("listHistory")
}

extension WireVocabulary {
    public static let session = WireVocabulary(
        "session",
        operations: [Operation.hello.erased, Operation.refreshAuth.erased, Operation.linkAccount.erased,
            Operation.unsubscribe.erased, Operation.listHistory.erased, Operation.getGameRecord.erased,
            Operation.createInvite.erased, Operation.lockGame.erased, Operation.unlockGame.erased, Operation.transferHost.erased,
            Operation.getGameAccess.erased])
}
