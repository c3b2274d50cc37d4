import ParlorRules

// Who may do what in a game, for every kind of game (issue 30): a game created private is joined by
// invitation, its host may lock it once everyone is in, and its spectators are allowed, limited to
// signed-in accounts, or refused. The settings travel as arguments every create and join operation
// accepts the same way (`GameAccessRequest`), read by the kernel beside the game's own arguments.

/// Who may watch a game they are not seated in.
public enum SpectatorPolicy: String, Sendable, Codable, CaseIterable {
    /// Anyone (the default, and what every game did before access settings).
    case allowed
    /// Users signed in with an account of a configured issuer (`hello {jwt}`, or a linked identity);
    /// anonymous identities are refused.
    case signedIn
    /// Nobody but the game's members.
    case none

    /// The policy a client named, or `INVALID_INPUT` listing the three.
    public init(reading text: String) throws(WireError) {
        guard let policy = SpectatorPolicy(rawValue: text) else {
            throw WireError(.invalidInput, "spectators must be \"allowed\", \"signedIn\" or \"none\" (got \"\(text.prefix(40))\").")
        }
        self = policy
    }
}

/// The access arguments any operation may carry beside its own: `private` and `spectators` when it
/// creates a game, `invite` when it joins one. Absent fields change nothing.
public struct GameAccessRequest: Sendable, Equatable, Codable {
    /// A new game is joined by invitation only.
    public var `private`: Bool?
    /// `"allowed"` (default), `"signedIn"` or `"none"`.
    public var spectators: String?
    /// An invitation (`createInvite`'s `invite`) to join a private game.
    public var invite: String?

    public init(private isPrivate: Bool? = nil, spectators: String? = nil, invite: String? = nil) {
        self.private = isPrivate
        self.spectators = spectators
        self.invite = invite
    }

    /// The access arguments beside an operation's own, in the arguments `decoder` is at; none when they
    /// are not an object (an operation whose arguments are a single value). A field of the wrong type
    /// fails as any argument does (`args.private` …).
    public static func beside(in decoder: any Decoder) throws -> GameAccessRequest {
        guard (try? decoder.container(keyedBy: CodingKeys.self)) != nil else { return GameAccessRequest() }
        return try GameAccessRequest(from: decoder)
    }

    enum CodingKeys: String, CodingKey {
        case `private`
        case spectators
        case invite
    }

    /// Nothing asked: the operation runs as it always did.
    public var isEmpty: Bool { self.private == nil && spectators == nil && invite == nil }

    /// Longest invitation read; a longer one is refused before any work is done on it.
    public static let maxInviteLength = 512
}

/// `lockGame`, `unlockGame`, `getGameAccess`: `{code, kind?}`. `kind` (`rummy`, `word-lobby`, `darts`,
/// `photo-quiz`, `tic-tac-toe`) is needed only when live games of two kinds share the code.
public struct GameAccessArguments: OperationArguments {
    public var code: String
    public var kind: String?

    public init(code: String, kind: String? = nil) {
        self.code = code
        self.kind = kind
    }
}

/// `transferHost {code, kind?, to}`: the host makes `to`, a member of the game, its host.
public struct TransferHostArguments: OperationArguments {
    public var code: String
    public var kind: String?
    public var to: UserID

    public init(code: String, kind: String? = nil, to: UserID) {
        self.code = code
        self.kind = kind
        self.to = to
    }
}

/// `createInvite {code, kind?, ttlSeconds?}`: an invitation valid for `ttlSeconds` (default one day, at
/// most seven).
public struct CreateInviteArguments: OperationArguments {
    public var code: String
    public var kind: String?
    public var ttlSeconds: Int?

    public static let defaultTTLSeconds = 24 * 60 * 60
    public static let maxTTLSeconds = 7 * 24 * 60 * 60

    public init(code: String, kind: String? = nil, ttlSeconds: Int? = nil) {
        self.code = code
        self.kind = kind
        self.ttlSeconds = ttlSeconds
    }

    /// `ttlSeconds`, the default when absent; `INVALID_INPUT` naming the bounds otherwise.
    public func checkedTTL() throws(WireError) -> Int {
        guard let ttlSeconds else { return Self.defaultTTLSeconds }
        guard (1...Self.maxTTLSeconds).contains(ttlSeconds) else {
            throw WireError(.invalidInput, "ttlSeconds must be from 1 to \(Self.maxTTLSeconds) (7 days) (got \(ttlSeconds)).")
        }
        return ttlSeconds
    }
}

/// A game's access settings as clients show them (the reply to `lockGame`, `unlockGame`,
/// `getGameAccess`).
public struct GameAccessView: Sendable, Equatable, Codable {
    public let kind: String
    public let code: String
    public let `private`: Bool
    public let locked: Bool
    public let spectators: SpectatorPolicy
    /// Who may lock, unlock and invite; absent when nobody may (a finished quiz).
    public let host: UserID?

    public init(kind: String, code: String, private isPrivate: Bool, locked: Bool, spectators: SpectatorPolicy, host: UserID?) {
        self.kind = kind
        self.code = code
        self.private = isPrivate
        self.locked = locked
        self.spectators = spectators
        self.host = host
    }
}

extension EventName {
    /// A game's access settings (`GameAccessView`) on its stream, beside its views: sent right after
    /// the current view to a new subscriber and again whenever they change (locked, unlocked, a new
    /// host) — for a game whose settings are not the defaults, and for any game once they were not.
    public static let access = EventName(rawValue: "access")
}

/// The reply to `createInvite`: the token to pass as `invite` when joining, the path of the browser's
/// invitation link (`/join/CODE?invite=…`) and when it stops working.
public struct InviteResult: Sendable, Equatable, Codable {
    public let kind: String
    public let code: String
    public let invite: String
    public let link: String
    public let expiresAt: String

    public init(kind: String, code: String, invite: String, link: String, expiresAt: String) {
        self.kind = kind
        self.code = code
        self.invite = invite
        self.link = link
        self.expiresAt = expiresAt
    }
}

extension Operation {
    /// The host's invitation to their private game: a signed token that expires.
    public static let createInvite = OperationDeclaration<CreateInviteArguments, InviteResult>("createInvite")
    /// The host shuts the game to new players (`GAME_LOCKED`); seated players still come back.
    public static let lockGame = OperationDeclaration<GameAccessArguments, GameAccessView>("lockGame")
    /// The host opens a locked game again.
    public static let unlockGame = OperationDeclaration<GameAccessArguments, GameAccessView>("unlockGame")
    /// The host hands the host role to another member; everyone's view shows the new host.
    public static let transferHost = OperationDeclaration<TransferHostArguments, GameAccessView>("transferHost")
    /// A game's access settings, for anyone signed in.
    public static let getGameAccess = OperationDeclaration<GameAccessArguments, GameAccessView>("getGameAccess")
}

/// An operation's own arguments with the access arguments beside them, in one object — how a client
/// creates a private game (`createMatch {…, private: true}`) or joins with an invitation
/// (`joinRoom {…, invite}`) of any kind without any game's arguments naming them.
public struct WithGameAccess<Arguments: OperationArguments>: OperationArguments {
    public var arguments: Arguments
    public var access: GameAccessRequest

    public init(_ arguments: Arguments, access: GameAccessRequest) {
        self.arguments = arguments
        self.access = access
    }

    public init(from decoder: any Decoder) throws {
        arguments = try Arguments(from: decoder)
        access = try GameAccessRequest.beside(in: decoder)
    }

    public func encode(to encoder: any Encoder) throws {
        try arguments.encode(to: encoder)
        var container = encoder.container(keyedBy: GameAccessRequest.CodingKeys.self)
        try container.encodeIfPresent(access.private, forKey: .private)
        try container.encodeIfPresent(access.spectators, forKey: .spectators)
        try container.encodeIfPresent(access.invite, forKey: .invite)
    }
}

extension OperationArguments {
    /// The operation `name` with these arguments and `access` beside them.
    public func operation(named name: OperationName, access: GameAccessRequest) -> Operation {
        Operation(name, WithGameAccess(self, access: access))
    }
}
