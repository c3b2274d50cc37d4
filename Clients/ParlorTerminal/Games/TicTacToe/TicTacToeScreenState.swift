import ParlorClient
import ParlorRules
import ParlorWire

/// Everything the tic-tac-toe screen shows, and what keys do to it. A plain value: the session feeds it
/// events and keys, and `TicTacToeScreen.render` draws it.
///
/// Keys: 1–9 mark a cell (row by row, as on a phone's keypad), or the arrows move the cursor and Enter
/// or space marks it; r starts the rematch of a finished game; l leaves (pressed twice while a game is
/// on, which it gives away); / types a command (`/kick NAME`: the host removes the other player), sent
/// with Enter, dropped with Esc; ? shows the keys; q, Esc or Ctrl-C close this terminal and keep the seat.
public struct TicTacToeScreenState: Sendable, Equatable {
    public var server: String
    public var code: String
    public var game: TicTacToeView?
    /// The game was deleted while we watched.
    public var deleted = false
    public var me: UserID?
    public var connection: ConnectionState = .connecting
    public var presence: PresenceView?
    /// Who may join and watch, from the game's `access` events (the status bar's "private", "locked").
    public var access: GameAccessView?
    public var message: ScreenMessage?
    /// The cell the arrows have reached (0–8).
    public var cursor = 4
    /// l was pressed once during a game: the second leaves.
    public var confirmingLeave = false
    /// What has been typed after `/` (a command), or nil while keys act at once.
    public var command: String?

    public init(server: String, code: String, game: TicTacToeView? = nil, me: UserID? = nil) {
        self.server = server
        self.code = code
        self.game = game
        self.me = me
    }

    public static let helpText = "Keys: 1–9 mark a cell · ←↑→↓ move, Enter marks · r rematch (at the end) · l leave · /kick NAME removes the other player (X) · q quit (keeps your seat)"
    /// The longest command typed after `/` (a name is at most 50 characters).
    static let maxCommandCharacters = 60

    // MARK: Derived

    public var mySeat: TicTacToeView.Player? {
        guard let me else { return nil }
        return game?.players.first { $0.playerId == me }
    }

    public var isMyTurn: Bool { me != nil && game?.next == me }

    /// The seats, as a kick looks them up; the host is X, who created the game.
    var seats: [KickRule.Seat] { game?.players.map { KickRule.Seat(id: $0.playerId, name: $0.name) } ?? [] }

    /// Whether this terminal is the host of a game being played, with the other player to remove.
    var mayKick: Bool { me != nil && seats.first?.id == me && seats.count > 1 && game?.status == "playing" }

    /// The player's name by id, for the sentences.
    func name(of user: UserID?) -> String? {
        guard let user else { return nil }
        return game?.players.first { $0.playerId == user }?.name
    }

    // MARK: Updates

    /// Takes a newer view; older or equal versions are ignored (returns false).
    public mutating func receive(_ view: TicTacToeView) -> Bool {
        if let current = game, view.version <= current.version { return false }
        game = view
        deleted = false
        return true
    }

    // MARK: Keys

    /// Applies a key; returns the action it asks for, if any.
    public mutating func handle(_ key: Key) -> TicTacToePlay? {
        if command != nil { return type(key) }
        let leaving = confirmingLeave
        confirmingLeave = false
        switch key {
        case .character(let character):
            if let digit = character.wholeNumberValue, (1...9).contains(digit) {
                cursor = digit - 1
                return mark(cursor)
            }
            switch character {
            case " ": return mark(cursor)
            case "r", "R": return rematch()
            case "l", "L": return leave(confirmed: leaving)
            case "q", "Q": return .quit
            case "/": command = ""
            case "?":
                message = ScreenMessage(Self.helpText, seconds: 30)
            default:
                break
            }
        case .enter: return mark(cursor)
        case .up: cursor = cursor >= 3 ? cursor - 3 : cursor
        case .down: cursor = cursor < 6 ? cursor + 3 : cursor
        case .left: cursor = cursor % 3 > 0 ? cursor - 1 : cursor
        case .right: cursor = cursor % 3 < 2 ? cursor + 1 : cursor
        case .escape, .interrupt, .endOfInput: return .quit
        case .backspace, .tab, .home, .end: break
        }
        return nil
    }

    /// A key while a command is typed (as on the rummy screen): it edits the command, Enter runs it, Esc
    /// (or Backspace on nothing) drops it.
    private mutating func type(_ key: Key) -> TicTacToePlay? {
        var typed = command ?? ""
        if key == .backspace && typed.isEmpty {
            command = nil
            return nil
        }
        if typed.edit(with: key, limit: Self.maxCommandCharacters) {
            command = typed
            return nil
        }
        switch key {
        case .enter:
            command = nil
            if HelpRequest.matches("/" + typed) {
                message = ScreenMessage(Self.helpText, seconds: 30)
                return nil
            }
            switch KickRule.named(inScript: typed, prefix: "/") {
            case nil:
                if typed.trimmedLine.isEmpty { return nil }
                return refuse("Unknown command \"/\(typed.trimmedLine)\"; /kick NAME removes the other player, ? lists the keys.")
            case .failure(let error)?: return refuse(error.message)
            case .success(let name)?: return kick(named: name)
            }
        case .escape, .interrupt: command = nil
        case .endOfInput: if typed.isEmpty { command = nil }
        case .up, .down, .left, .right, .home, .end, .tab, .backspace, .character: break
        }
        return nil
    }

    /// The host's removal of the player called `name`, or nil (with a message) when it cannot be done.
    mutating func kick(named name: String) -> TicTacToePlay? {
        KickRule.target(named: name, among: seats, me: me, host: seats.first?.id, place: "game") {
            message = ScreenMessage($0, isError: true)
        }.map { .kick($0) }
    }

    /// What a typed or scripted request can do from here, or nil (with a message) when it cannot.
    mutating func mark(_ cell: Int) -> TicTacToePlay? {
        guard let game, mySeat != nil else { return refuse("You are watching this game; join it to play (parlor tictactoe join \(code)).") }
        switch game.status {
        case "waiting": return refuse("The game starts when a second player joins.")
        case "won", "draw": return refuse("The game is over; r starts a rematch.")
        default: break
        }
        guard isMyTurn else { return refuse("It is \(name(of: game.next) ?? "the other player")'s turn.") }
        guard game.board[cell].isEmpty else { return refuse("Cell \(cell + 1) is already marked.") }
        return .mark(cell: cell)
    }

    mutating func rematch() -> TicTacToePlay? {
        guard let game, mySeat != nil else { return refuse("Only the players start a rematch.") }
        guard game.status == "won" || game.status == "draw" else { return refuse("A rematch starts once the game is over.") }
        return .rematch
    }

    mutating func leave(confirmed: Bool) -> TicTacToePlay? {
        guard mySeat != nil else { return refuse("You are watching; q closes this terminal.") }
        guard game?.status == "playing", !confirmed else { return .leave }
        confirmingLeave = true
        message = ScreenMessage("Leaving now gives the game away: press l again to leave.", seconds: nil)
        return nil
    }

    private mutating func refuse(_ sentence: String) -> TicTacToePlay? {
        message = ScreenMessage(sentence, isError: true)
        return nil
    }
}
