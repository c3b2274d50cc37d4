import ParlorRules
import ParlorWire

// Who may do what in a game, for every kind: create private games and choose their spectators, join
// with an invitation, and — as the host — invite, lock and unlock.

extension ParlorClient {
    /// Sends `operation` with `arguments` and the access arguments beside them: `private` and
    /// `spectators` on any create (`createMatch`, `createRoom`, …), `invite` on any join.
    public func call<Arguments, Result>(
        _ operation: OperationDeclaration<Arguments, Result>, _ arguments: Arguments, access: GameAccessRequest
    ) async throws(ParlorClientError) -> Result {
        let request = ParlorWire.Operation(operation.name, WithGameAccess(arguments, access: access))
        if let none = NoResult() as? Result {
            try await sendExpectingNoResult(request)
            return none
        }
        return try await send(request, as: Result.self)
    }

    /// `operation` with `access` beside its arguments (``ParlorClientConfiguration/gameAccess``).
    static func carrying(_ access: GameAccessRequest, _ operation: ParlorWire.Operation) -> ParlorWire.Operation {
        operation.arguments.operation(named: operation.name, access: access)
    }

    /// The host's invitation to their game (`kind` only when live games of two kinds share the code):
    /// the token to pass as `invite` when joining, and the browser's link.
    public func createInvite(code: String, kind: String? = nil, ttlSeconds: Int? = nil) async throws(ParlorClientError) -> InviteResult {
        try await call(Operation.createInvite, CreateInviteArguments(code: code, kind: kind, ttlSeconds: ttlSeconds))
    }

    /// The host shuts their game to new players.
    public func lockGame(code: String, kind: String? = nil) async throws(ParlorClientError) -> GameAccessView {
        try await call(Operation.lockGame, GameAccessArguments(code: code, kind: kind))
    }

    /// The host opens their locked game again.
    public func unlockGame(code: String, kind: String? = nil) async throws(ParlorClientError) -> GameAccessView {
        try await call(Operation.unlockGame, GameAccessArguments(code: code, kind: kind))
    }

    /// The host makes `user`, a member of the game, its host.
    public func transferHost(code: String, kind: String? = nil, to user: UserID) async throws(ParlorClientError) -> GameAccessView {
        try await call(Operation.transferHost, TransferHostArguments(code: code, kind: kind, to: user))
    }

    /// A game's access settings: private, locked, its spectators and its host.
    public func gameAccess(code: String, kind: String? = nil) async throws(ParlorClientError) -> GameAccessView {
        try await call(Operation.getGameAccess, GameAccessArguments(code: code, kind: kind))
    }
}
