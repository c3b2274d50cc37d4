import ParlorRules

/// One version of one live game as the store keeps it.
public struct StoredGame: Sendable {
    public var kind: GameKind
    /// Unique among the live games of its kind.
    public var id: String
    /// The short code players type to find it (the id itself for rooms).
    public var code: String
    public var version: Int
    public var state: StoredState
    /// The game's scheduled actions as a JSON array (`[]` when none), kept with its state so that a
    /// save moves both at once.
    public var schedule: String
    /// Set on the save that files the finished game in history.
    public var archive: GameArchive?
    /// What this save replaces. A store that several nodes share saves only while the stored game is
    /// still that, and throws `.conflict` otherwise; a store of one node's own may ignore it.
    public var replacing: Replacing

    public enum Replacing: Sendable, Equatable {
        /// Whatever is stored (tests, tools).
        case anything
        /// Nothing: a new game.
        case nothing
        /// This version, the one the game's actor last committed.
        case version(Int)
    }
    /// The node of a cluster that serves the game: as stored (`games.node`) when loaded, nil when no
    /// node does; when saved, the node the saver knows serves it, if another (the shared database tells
    /// that node of the change). A store of one node's own ignores it.
    public var servedBy: String?
    /// The game's record (`GameRecordWrite`): saved, the steps this save applied (and the record's
    /// head on creation), in the same transaction as the game; loaded, the record's id alone. Nil for a
    /// game created before records existed, which has none.
    var record: GameRecordWrite?
    /// Where a loaded game was read from, for an operator fixing a row that cannot be read
    /// ("/data/parlor.sqlite, table games").
    public var location: String = "the store"

    public init(
        kind: GameKind, id: String, code: String, version: Int, state: StoredState, schedule: String,
        archive: GameArchive? = nil, replacing: Replacing = .anything, servedBy: String? = nil, location: String = "the store"
    ) {
        self.init(
            kind: kind, id: id, code: code, version: version, state: state, schedule: schedule, archive: archive, replacing: replacing,
            servedBy: servedBy, record: nil, location: location)
    }

    init(
        kind: GameKind, id: String, code: String, version: Int, state: StoredState, schedule: String,
        archive: GameArchive? = nil, replacing: Replacing = .anything, servedBy: String? = nil, record: GameRecordWrite?,
        location: String = "the store"
    ) {
        self.record = record
        self.servedBy = servedBy
        self.replacing = replacing
        self.location = location
        self.kind = kind
        self.id = id
        self.code = code
        self.version = version
        self.state = state
        self.schedule = schedule
        self.archive = archive
    }

    /// The schedule of a game with nothing scheduled.
    public static let emptySchedule = "[]"
}

/// A game's state as it travels to and from a store: the live value, which a store that writes to
/// disk turns into the game's stored JSON and a store in memory keeps as it is, or the JSON a store
/// read back.
public enum StoredState: Sendable {
    case value(any StorableState)
    case json(String)

    /// The stored JSON (encoding the value when that is what this holds).
    public func json() throws(StoreError) -> String {
        switch self {
        case .value(let value): try value.storedJSON()
        case .json(let json): json
        }
    }
}

/// A live game state that knows its stored form (each game writes its own, e.g. a hand-written codec
/// for the rummy room, which is saved on every change).
public protocol StorableState: Sendable {
    func storedJSON() throws(StoreError) -> String
}
