// Arguments of the session and subscription operations.

/// `hello {token?}`: sign in anonymously, or resume the user a token names.
public struct HelloArguments: OperationArguments, DefaultArguments {
    public var token: String?

    public init(token: String? = nil) { self.token = token }
    public init() { self.init(token: nil) }
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
