import ParlorRules
import ParlorWire

/// A live game as the access operations reach it, whatever its kind.
protocol AccessibleGame: Sendable {
    /// The host locks or unlocks the game.
    func change(_ change: GameAccessChange, by user: UserID) async throws(WireError) -> GameAccessView
    /// Its settings as they are now.
    func currentAccess() async throws(WireError) -> GameAccessView
    /// The host's invitation, good for `ttlSeconds`.
    func invite(by user: UserID, ttlSeconds: Int) async throws(WireError) -> InviteResult
    /// The host makes `player` the host (for games whose rules are `HostHandover`).
    func transferHost(to player: UserID, by user: UserID) async throws(WireError) -> GameAccessView
}

extension GameActor: AccessibleGame {
    func invite(by user: UserID, ttlSeconds: Int) async throws(WireError) -> InviteResult {
        lastUsed = .now
        await catchUp()
        guard !isDeleted else { throw host.game.notFound(id: id) }
        try checkHost(user, to: "invite players to")
        // Whole seconds, as the invitation carries them.
        let now = host.clock.now
        let expires = Instant(millisecondsSinceEpoch: (now.millisecondsSinceEpoch / 1000 + Int64(ttlSeconds)) * 1000)
        let invite = host.invites.issue(kind: Game.kind, code: code.rawValue, expires: expires)
        return InviteResult(
            kind: Game.kind.name, code: code.rawValue, invite: invite, link: "/join/\(code.rawValue)?invite=\(invite)",
            expiresAt: expires.iso8601)
    }
}

extension GameActor {
    func transferHost(to player: UserID, by user: UserID) async throws(WireError) -> GameAccessView {
        lastUsed = .now
        guard let rules = Rules.self as? any HostHandover.Type, let action = rules.handOverHost(to: player) as? Action else {
            throw WireError(.invalidState, "The host of a \(Game.kind.noun) cannot be handed over.")
        }
        await catchUp()
        guard !isDeleted else { throw host.game.notFound(id: id) }
        try checkHost(user, to: "hand over")
        guard state.members.contains(player) else {
            throw WireError(.playerNotFound, "Player \(player.rawValue) is not in \(Game.kind.noun) \(code.rawValue).")
        }
        _ = try await perform(action, by: user)
        return accessView
    }
}

extension GameHost {
    /// The live game with `code`, or nil when this kind has none: a code of another kind's shape, or
    /// one no game of this kind has. A failure to look it up (the store) is thrown.
    func accessible(code: String) async throws(WireError) -> (any AccessibleGame)? {
        do {
            return try await game(code: code)
        } catch where error.status == .notFound || error.status == .invalidArgument {
            return nil
        }
    }
}

/// `createInvite`, `lockGame`, `unlockGame` and `getGameAccess`: the access settings of a live game of
/// any kind, found by its code (and its kind, when live games of two kinds share the code).
enum GameAccessOperations {
    static func entries(_ games: [any HostedGame]) -> [OperationEntry] {
        [
            OperationHandler(Operation.createInvite) { args, context throws(WireError) in
                let user = try context.signedIn()
                let ttl = try args.checkedTTL()
                let game = try await find(args.code, kind: args.kind, in: games)
                return .reply(try EncodedJSON.encoding(try await game.invite(by: user, ttlSeconds: ttl)))
            }.entry(),
            changing(Operation.lockGame, .lock, games).entry(),
            changing(Operation.unlockGame, .unlock, games).entry(),
            OperationHandler(Operation.transferHost) { args, context throws(WireError) in
                let user = try context.signedIn()
                let game = try await find(args.code, kind: args.kind, in: games)
                return .reply(try EncodedJSON.encoding(try await game.transferHost(to: args.to, by: user)))
            }.entry(),
            OperationHandler(Operation.getGameAccess) { args, context throws(WireError) in
                _ = try context.signedIn()
                return .reply(try EncodedJSON.encoding(try await find(args.code, kind: args.kind, in: games).currentAccess()))
            }.entry(),
        ]
    }

    private static func changing(
        _ declaration: OperationDeclaration<GameAccessArguments, GameAccessView>, _ change: GameAccessChange, _ games: [any HostedGame]
    ) -> OperationHandler<GameAccessArguments> {
        OperationHandler(declaration) { args, context throws(WireError) in
            let user = try context.signedIn()
            let game = try await find(args.code, kind: args.kind, in: games)
            return .reply(try EncodedJSON.encoding(try await game.change(change, by: user)))
        }
    }

    /// The one live game with `code` (of `kind`, when named); `NOT_FOUND` when there is none,
    /// `INVALID_INPUT` when games of several kinds have it and no kind was named.
    static func find(_ code: String, kind: String?, in games: [any HostedGame]) async throws(WireError) -> any AccessibleGame {
        let text = String(code.prefix(40))
        var candidates = games
        if let kind {
            candidates = games.filter { $0.kind.name == kind }
            guard !candidates.isEmpty else {
                throw WireError(.invalidInput, "kind must be one of \(games.map(\.kind.name).joined(separator: ", ")) (got \"\(kind.prefix(40))\").")
            }
        }
        var found: [(kind: GameKind, game: any AccessibleGame)] = []
        for host in candidates {
            if let game = try await host.accessible(code: code) { found.append((host.kind, game)) }
        }
        guard found.count <= 1 else {
            let kinds = found.map(\.kind.name).joined(separator: " and ")
            throw WireError(.invalidInput, "Live games of several kinds have code \(text) (\(kinds)): name one with kind.")
        }
        guard let game = found.first?.game else { throw WireError(.notFound, "No live game has code \(text).") }
        return game
    }
}
