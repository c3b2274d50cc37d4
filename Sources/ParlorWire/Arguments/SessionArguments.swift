// Arguments of the session and subscription operations.

/// `hello {token?, jwt?}`: sign in anonymously, resume the user a token names, or sign in with an
/// account: a JWT from an issuer the server trusts.
public struct HelloArguments: OperationArguments, DefaultArguments {
    public var token: String?
    /// A JWT from a configured issuer (Supabase, Firebase, any OIDC provider): sign in as its account.
    public var jwt: String?

    public init(token: String? = nil, jwt: String? = nil) {
        self.token = token
        self.jwt = jwt
    }

    public init() { self.init(token: nil) }
}

/// `refreshAuth {jwt}`: a fresh JWT of the account the connection signed in with.
public struct RefreshAuthArguments: OperationArguments {
    public var jwt: String

    public init(jwt: String) { self.jwt = jwt }
}

/// `linkAccount {jwt}` (`POST /account/link`): the account, by a JWT from a configured issuer, that the
/// caller's Parlor identity becomes; signed in with a Parlor token.
public struct LinkAccountArguments: OperationArguments {
    public var jwt: String

    public init(jwt: String) { self.jwt = jwt }
}

/// `unsubscribe {subscription}`.
public struct UnsubscribeArguments: OperationArguments {
    public var subscription: Int

    public init(subscription: Int) { self.subscription = subscription }
}

/// No arguments (`observeCatalog`, `observeFriends`, `quizSettings`).
public struct EmptyArguments: OperationArguments, DefaultArguments {
    public init() {}
}
