import ParlorRules

// Arguments of the darts match operations (seed `darts-srs.md`, issue 14). Match codes, game types,
// rules and darts arrive as text so the rules can refuse a bad one by name (INVALID_INPUT,
// INVALID_DARTS); player ids must be UUIDs (else BAD_REQUEST). Ranges are the rules' to check.

/// `createMatch {gameType, inRule?, outRule?, legs?, sets?, capacity?, playerName}`.
public struct CreateMatchArguments: OperationArguments {
    /// `"301"`, `"501"` or `"701"`.
    public var gameType: String
    /// `"straight"` (default), `"double"` or `"master"`.
    public var inRule: String?
    /// `"double"` (default), `"straight"` or `"master"`.
    public var outRule: String?
    /// Legs to win (a set, or the match without sets); default 1.
    public var legs: Int?
    /// Sets to win; absent for a match of legs only.
    public var sets: Int?
    /// Players the match seats, guests included; default 4.
    public var capacity: Int?
    public var playerName: String

    public init(
        gameType: String, inRule: String? = nil, outRule: String? = nil, legs: Int? = nil, sets: Int? = nil, capacity: Int? = nil,
        playerName: String
    ) {
        self.gameType = gameType
        self.inRule = inRule
        self.outRule = outRule
        self.legs = legs
        self.sets = sets
        self.capacity = capacity
        self.playerName = playerName
    }
}

/// `joinMatch {code, playerName}`.
public struct JoinMatchArguments: OperationArguments {
    public var code: String
    public var playerName: String

    public init(code: String, playerName: String) {
        self.code = code
        self.playerName = playerName
    }
}

/// `addGuest {code, name}`.
public struct AddGuestArguments: OperationArguments {
    public var code: String
    public var name: String

    public init(code: String, name: String) {
        self.code = code
        self.name = name
    }
}

/// `removePlayer {code, playerId}`.
public struct RemovePlayerArguments: OperationArguments {
    public var code: String
    public var playerId: UserID

    public init(code: String, playerId: UserID) {
        self.code = code
        self.playerId = playerId
    }
}

/// `startMatch`, `leaveMatch`, `observeMatch`, `getMatch`, `rematchMatch`: `{code}`.
public struct MatchCodeArguments: OperationArguments {
    public var code: String

    public init(code: String) { self.code = code }
}

/// `recordVisit {code, playerId, darts | total}`.
public struct RecordVisitArguments: OperationArguments {
    public var code: String
    public var playerId: UserID
    /// Up to three darts in notation (`"T20"`, `"D16"`, `"25"`, `"DB"`, `"M"`).
    public var darts: [String]?
    /// The visit's total (0–180), for a visit that does not finish the leg; counts as three darts.
    public var total: Int?

    public init(code: String, playerId: UserID, darts: [String]? = nil, total: Int? = nil) {
        self.code = code
        self.playerId = playerId
        self.darts = darts
        self.total = total
    }
}

/// `editLastVisit {code, visit?, darts | total}`.
public struct EditLastVisitArguments: OperationArguments {
    public var code: String
    /// The number of the visit being replaced, as the view's `lastVisit.number` showed it: refused with
    /// INVALID_STATE when it is no longer the last. Absent: whatever visit is last.
    public var visit: Int?
    public var darts: [String]?
    public var total: Int?

    public init(code: String, visit: Int? = nil, darts: [String]? = nil, total: Int? = nil) {
        self.code = code
        self.visit = visit
        self.darts = darts
        self.total = total
    }
}

/// `undoLastVisit {code, visit?}`.
public struct UndoLastVisitArguments: OperationArguments {
    public var code: String
    /// The number of the visit being taken back, as the view's `lastVisit.number` showed it.
    public var visit: Int?

    public init(code: String, visit: Int? = nil) {
        self.code = code
        self.visit = visit
    }
}

/// `checkout {score, darts, outRule?}`.
public struct CheckoutArguments: OperationArguments {
    public var score: Int
    /// Darts left in the visit: 1, 2 or 3.
    public var darts: Int
    /// `"double"` (default), `"straight"` or `"master"`.
    public var outRule: String?

    public init(score: Int, darts: Int, outRule: String? = nil) {
        self.score = score
        self.darts = darts
        self.outRule = outRule
    }
}
