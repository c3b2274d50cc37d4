import ParlorRules
import ParlorWire
import WebSocketCore

/// Everything the kernel needs to host one kind of game, besides its rules: how its games are named
/// and found, how they look on the wire, how they are stored, and what the rules read from the server.
///
/// The kernel (`GameHost`, `GameActor`, the store, the session, the HTTP layer) is written once against
/// this protocol and never names a game; a game's operations and routes are built on its `GameHost`
/// (see `GameModule`).
protocol GameDefinition: Sendable {
    associatedtype Rules: GameRules
    /// The short code players type to find a game (`RoomCode`, `LobbyCode`).
    associatedtype Code: ShortCode

    /// Names the kind in the store, logs and metrics (stored: never change a shipped one), and how
    /// sentences name its games.
    static var kind: GameKind { get }

    // MARK: Codes and ids

    /// The codes given out (injectable so a test can use a space small enough to exhaust).
    var codeSpace: CodeSpace { get }
    /// Games held at once; creating more fails with `NO_FREE_CODE`.
    var maxGames: Int { get }
    /// A new game's id: its code for rooms, an opaque random id for lobbies. The kernel retries on the
    /// (astronomically unlikely) collision with a live game.
    func newID(code: Code) -> String
    func id(of game: Rules) -> String
    func code(of game: Rules) -> Code
    /// Reads a code a client sent, failing as the game reports a malformed code.
    func parse(code: String) throws(WireError) -> Code
    /// No live game has this code.
    func notFound(code: Code) -> WireError
    /// No live game has this id (or it was deleted).
    func notFound(id: String) -> WireError
    /// The rules' refusal as the client sees it.
    func wireError(_ failure: Rules.Failure) -> WireError

    // MARK: History

    /// A finished game as `listHistory` lists it to `user`; nil for a game this kind does not list
    /// (the default).
    func playedGame(_ game: Rules, for user: UserID) -> PlayedGame?

    /// Whether this kind's games are also played away from the server and uploaded (`UploadStore`):
    /// then `listHistory` lists those too, each as `playedGame(uploaded:for:)` makes it. False by default.
    var listsUploads: Bool { get }

    /// An uploaded game as `listHistory` lists it to `user`; nil for one it does not list.
    func playedGame(uploaded game: UploadedGame, for user: UserID) throws(StoreError) -> PlayedGame?

    // MARK: Records

    /// Whether every action of a finished game may be shown to anyone who may read its record (no move
    /// hides anything once the game is over: darts, rummy, tic-tac-toe). False by default: a game with
    /// secrets (a word game's rejected words, a quiz's changed guesses) shows its record as its public
    /// views alone until records are filtered for each viewer.
    var recordsPublicActions: Bool { get }

    /// What applying `action` read from `environment` (the rules read the server around them only
    /// there), kept with the record's step so that a replay reads it back rather than the environment
    /// as it is then (`replayEnvironment(reading:)`): the record replays the same after a catalog import
    /// or a photo's deletion. `game` is the game the action reached. JSON; nil when the action read
    /// nothing (the default).
    func environmentReads(of action: Rules.Action, reaching game: Rules, in environment: Rules.Environment) throws(WireError) -> String?

    /// The environment a replay gives the rules for a step that recorded `reads`: one that answers every
    /// read as it was answered live.
    func replayEnvironment(reading reads: String) throws -> Rules.Environment

    /// The formats this kind exports a finished game's record in, besides its JSON (`GET
    /// /games/{code}/record.{format}`); none by default.
    var recordExportFormats: [RecordExportFormat] { get }

    /// A finished game's export in `format` (one of `recordExportFormats`), made from the game after
    /// each step of its record (the first: as created; the last: as it finished).
    func recordExport(_ format: RecordExportFormat, of games: [Rules]) throws(WireError) -> String

    // MARK: Rules

    /// What the rules read from the server, as it is now (what may change while games run: a word list, a catalog of puzzles).
    func environment() -> Rules.Environment

    // MARK: Wire

    /// The event that carries the public view (`room`, `lobby`).
    var publicEvent: EventName { get }
    /// The event that carries a member's private view (`lobbyPrivate`); nil for games without one.
    var privateEvent: EventName? { get }
    /// The public view of `game` as published at `now`, encoded once per version for every subscriber.
    func encodePublicView(_ game: Rules, at now: Instant) throws(WireError) -> EncodedJSON
    /// One member's private view.
    func encodePrivateView(_ view: Rules.PrivateView) throws(WireError) -> EncodedJSON

    // MARK: Storage

    /// The game as its stored JSON (the rules' own Codable form, possibly written by a faster hand).
    static func storedJSON(_ game: Rules) throws(StoreError) -> String
    /// The game back from its stored JSON.
    static func decodeStored(_ json: String) throws -> Rules
}

extension GameDefinition {
    var kind: GameKind { Self.kind }

    /// A random (version 4) UUID, for a game whose id is not its code (quizzes, whose ids also name
    /// files; tic-tac-toe games).
    static func randomID() -> String {
        var generator = SystemRandomNumberGenerator()
        return UserID.random(using: &generator).rawValue
    }

    var privateEvent: EventName? { nil }

    func playedGame(_ game: Rules, for user: UserID) -> PlayedGame? { nil }

    var listsUploads: Bool { false }

    var recordsPublicActions: Bool { false }

    func environmentReads(of action: Rules.Action, reaching game: Rules, in environment: Rules.Environment) throws(WireError) -> String? {
        nil
    }

    func replayEnvironment(reading reads: String) throws -> Rules.Environment { environment() }

    var recordExportFormats: [RecordExportFormat] { [] }

    func recordExport(_ format: RecordExportFormat, of games: [Rules]) throws(WireError) -> String {
        throw WireError(.recordNotAvailable, "\(Self.kind.name) games are not exported as \(format.name).")
    }

    func playedGame(uploaded game: UploadedGame, for user: UserID) throws(StoreError) -> PlayedGame? { nil }

    func encodePrivateView(_ view: Rules.PrivateView) throws(WireError) -> EncodedJSON {
        throw WireError.internalError("\(Self.kind) games have no private views.")
    }
}

// MARK: Frames

extension GameDefinition {
    /// One version of `game` as its subscribers receive it: the public view, encoded once, for everyone,
    /// and, for games that keep secrets, each member's private view. Every member gets a private frame
    /// with every version, so a subscriber whose stream skipped versions (conflation) still ends on its
    /// own newest view.
    func feedVersion(of game: Rules, publicView: EncodedJSON, topic: Int) throws(WireError) -> FeedVersion {
        let frame = PreparedMessage(json: EventMessage.frame(subscription: topic, event: publicEvent, data: publicView))
        guard let privateEvent else { return FeedVersion(version: game.version, frame: frame) }
        var privateFrames: [UserID: PreparedMessage] = [:]
        let members = game.members
        privateFrames.reserveCapacity(members.count)
        for member in members {
            let view = try encodePrivateView(game.privateView(for: member))
            privateFrames[member] = PreparedMessage(json: EventMessage.frame(subscription: topic, event: privateEvent, data: view))
        }
        return FeedVersion(version: game.version, frame: frame, privateFrames: privateFrames)
    }

    /// What subscribers get when a game is deleted: the public event with null data, then `end` (the
    /// seed's stream of `GameRoom?` ends with nil).
    func deletionFrames(topic: Int) -> [PreparedMessage] {
        [
            PreparedMessage(json: EventMessage.frame(subscription: topic, event: publicEvent, data: .null)),
            PreparedMessage(json: EventMessage.end(subscription: topic)),
        ]
    }
}

extension GameDefinition where Rules.Environment == Void {
    func environment() {}
}
