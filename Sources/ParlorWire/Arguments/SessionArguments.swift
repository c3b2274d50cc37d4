// Arguments of the session, subscription and catalog operations.

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

/// `getCatalog {since?}`: the catalog, or `{unchanged: true}` when `since` is already its version.
public struct GetCatalogArguments: OperationArguments, DefaultArguments {
    public var since: Int?

    public init(since: Int? = nil) { self.since = since }
    public init() { self.init(since: nil) }
}

/// `observeCatalog {}`.
public struct EmptyArguments: OperationArguments, DefaultArguments {
    public init() {}
}

// MARK: Operations

extension OperationName {
    public static let getCatalog = OperationName("getCatalog")
    public static let observeCatalog = OperationName("observeCatalog")
}

extension Operation {
    public static func hello(_ arguments: HelloArguments) -> Operation { Operation(.hello, arguments) }
    public static func unsubscribe(_ arguments: UnsubscribeArguments) -> Operation { Operation(.unsubscribe, arguments) }
    public static func getCatalog(_ arguments: GetCatalogArguments) -> Operation { Operation(.getCatalog, arguments) }
    public static func observeCatalog(_ arguments: EmptyArguments) -> Operation { Operation(.observeCatalog, arguments) }
}

extension OperationSpec {
    /// Signing in and ending subscriptions, whatever the game.
    static let session: [OperationSpec] = [
        OperationSpec(.hello, HelloArguments.self),
        OperationSpec(.unsubscribe, UnsubscribeArguments.self),
    ]

    /// The game catalog.
    static let catalog: [OperationSpec] = [
        OperationSpec(.getCatalog, GetCatalogArguments.self),
        OperationSpec(.observeCatalog, EmptyArguments.self),
    ]
}
