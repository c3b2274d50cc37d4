import ParlorWire

/// The operations of the connection itself: signing in and ending a subscription. WebSocket only;
/// over HTTP, `POST /session` signs in.
enum SessionOperations {
    static var entries: [OperationEntry] { [hello.entry(), refreshAuth.entry(), unsubscribe.entry()] }

    /// `hello {token?, jwt?}`: sign in with an account, resume the user a valid token names, or sign in
    /// as a new anonymous user.
    static let hello = OperationHandler(Operation.hello) { args, context throws(WireError) in
        .reply(try await session(context).hello(args))
    }

    /// `refreshAuth {jwt}`: a fresh JWT of the connection's account keeps it signed in past the old one's expiry.
    static let refreshAuth = OperationHandler(Operation.refreshAuth) { args, context throws(WireError) in
        .reply(try await session(context).refreshAuth(args))
    }

    /// `unsubscribe {subscription}`: its `end` event goes out before the reply.
    static let unsubscribe = OperationHandler(Operation.unsubscribe) { args, context throws(WireError) in
        try session(context).unsubscribe(args.subscription)
        return .reply(.null)
    }

    private static func session(_ context: OperationContext) throws(WireError) -> Session {
        guard let session = context.session else { throw WireError(.notFound, "This operation exists only on the WebSocket.") }
        return session
    }
}
