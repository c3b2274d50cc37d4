import ParlorClient
import ParlorRules
import ParlorWire

/// A game the terminal client plays. `GameSession` does what every game does — connects, takes the
/// seat, follows the server's stream, reads keys (or a script's lines) and signals, runs actions, draws
/// the screen or writes JSON lines, and says goodbye — and asks the game only for what differs:
///
/// - its calls to the server: `enter` (create, join, watch…), `follow`, `perform` an action, and the
///   sentence for a refused entry;
/// - its screen: the state (`Screen`, with what its keys do) and `render`;
/// - its reactions, on a value that holds the screen and whatever else the game must remember for one
///   session: to an update, the stream's end, a key, a script's line, an action's answer;
/// - its outputs (`Output`, one JSON line each) and the name of its place for the farewells.
///
/// `RoomGame` (rummy rooms) and `LobbyGame` (word lobbies) are the games so far. A new one adds a type
/// like them, its screen (state and `render`), its key map and script commands, its `Output`, and a
/// command that calls `GameSession<NewGame>.run(options, entry)`.
protocol TerminalGame: Sendable {
    /// How the command asks to come in (create with these settings, join this code…).
    associatedtype Entry: Sendable
    associatedtype Screen: GameScreen
    /// What the game's server stream delivers.
    associatedtype Update: Sendable
    associatedtype Action: GameAction
    /// What the server answers to an action.
    associatedtype ActionResult: Sendable
    associatedtype Output: GameOutput

    /// What a reaction asks of the session: outputs to report, an action to start, an ending.
    typealias Step = GameSessionLogic<Self>.Step

    // MARK: The server

    /// Takes the seat (or, to watch, none): the screen to start from and what to report at once.
    static func enter(
        _ entry: Entry, client: ParlorClient
    ) async throws(ParlorClientError) -> (screen: Screen, outputs: [Output])
    /// The place's updates, until it is deleted or the client closes.
    static func follow(_ screen: Screen, client: ParlorClient) async throws(ParlorClientError) -> AsyncStream<Update>
    static func perform(
        _ action: Action, in screen: Screen, client: ParlorClient
    ) async throws(ParlorClientError) -> ActionResult
    /// The sentence on stderr when entering fails.
    static func refusal(_ error: ParlorClientError, entering entry: Entry) -> String
    /// How the session goes on in a rematch whose code the old game announced, as `screen` last showed
    /// it; nil for games without.
    static func rematchEntry(code: String, from screen: Screen) -> Entry?

    // MARK: The screen

    /// Draws the screen at a width and height (`RoomScreen.render`, `LobbyScreen.render`).
    static var render: @Sendable (_ screen: Screen, _ width: Int, _ height: Int) -> [ScreenLine] { get }
    /// What the farewells call the place ("You left room K7Q2MX.", "Lobby GDTS was deleted.").
    static var placeName: String { get }

    // MARK: Reactions

    var screen: Screen { get set }
    init(screen: Screen)
    /// An update from the stream, read when this device's clock said `time`.
    mutating func receive(_ update: Update, at time: Instant, mode: SessionMode) -> Step
    /// The stream ended: why the session ends, or nil to carry on.
    mutating func streamEnded() -> SessionEnding?
    mutating func press(_ key: Key) -> Action?
    /// A script's line: nil when blank.
    func scriptRequest(_ line: String) -> Result<ScriptRequest<Action>, ScriptCommandError>?
    /// The state again, as a script asks for it (`room`, `lobby`): reported even if unchanged.
    var snapshot: [Output] { get }
    /// An action is about to be sent (default: nothing to note).
    mutating func starting(_ action: Action)
    mutating func succeeded(_ action: Action, with result: ActionResult, mode: SessionMode) -> Step
    mutating func failed(_ action: Action, with error: ParlorClientError) -> Step
    /// A second passed, by this device's clock (every second on a terminal).
    mutating func tick(_ now: Instant)
    /// The sentence left on the terminal after quitting (default: none). `clientArguments` are the
    /// options a command that comes back must repeat (`--server`, `--profile`).
    func farewellAfterQuit(clientArguments: [String]) -> String?
}

extension TerminalGame {
    static func rematchEntry(code: String, from screen: Screen) -> Entry? { nil }
    mutating func starting(_ action: Action) {}
    mutating func tick(_ now: Instant) {}
    func farewellAfterQuit(clientArguments: [String]) -> String? { nil }
}

/// The rule every game with a host shares for a rematch: the game must be over, and only its host
/// starts the next one.
enum RematchRule {
    /// Why a rematch cannot be asked for now (nil: it can). `host`: the host's name, if known;
    /// `place`: what the game is called ("match").
    static func refusal(over: Bool, isHost: Bool, host: String?, place: String) -> String? {
        guard over else { return "A rematch starts once the \(place) is over." }
        guard isHost else { return "Only the host starts a rematch; \(host ?? "the host") can." }
        return nil
    }
}

/// What the session itself keeps up to date on every game's screen.
protocol GameScreen: Sendable {
    /// The place's code, as people read it out.
    var code: String { get }
    /// Who this terminal is signed in as.
    var me: UserID? { get set }
    var connection: ConnectionState { get set }
    /// Who of the players is connected (the game's `presence` events), drawn as `●`/`○` by each name.
    var presence: PresenceView? { get set }
    /// Who may join and watch (the game's `access` events), said in the status bar; nil until one came.
    var access: GameAccessView? { get set }
    /// The message line; the session expires it (`Message.seconds`).
    var message: ScreenMessage? { get set }
}

/// What a person or script can ask of every game.
protocol GameAction: Sendable, Equatable {
    /// Close this terminal and keep the seat: the session ends without asking the server.
    static var quit: Self { get }
    /// Give up the seat: the session ends when the server has answered.
    static var leave: Self { get }
    /// The name scripts see in `done`, `result` and `error` lines.
    var name: String { get }
}

/// What a script's line asks, in any game.
enum ScriptRequest<Action> {
    case action(Action)
    /// Report the state again.
    case show
}
