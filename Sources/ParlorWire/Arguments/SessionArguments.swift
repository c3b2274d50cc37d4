// Arguments of the session, subscription and catalog operations.

/// `hello {token?}`: sign in anonymously, or resume the user a token names.
public struct HelloArguments: Sendable, Equatable, Codable, DefaultArguments {
    public var token: String?

    public init(token: String? = nil) { self.token = token }
    public init() { self.init(token: nil) }
}

/// `unsubscribe {subscription}`.
public struct UnsubscribeArguments: Sendable, Equatable, Codable {
    public var subscription: Int

    public init(subscription: Int) { self.subscription = subscription }
}

/// `getCatalog {since?}`: the catalog, or `{unchanged: true}` when `since` is already its version.
public struct GetCatalogArguments: Sendable, Equatable, Codable, DefaultArguments {
    public var since: Int?

    public init(since: Int? = nil) { self.since = since }
    public init() { self.init(since: nil) }
}

/// `observeCatalog {}`.
public struct EmptyArguments: Sendable, Equatable, Codable, DefaultArguments {
    public init() {}
}
