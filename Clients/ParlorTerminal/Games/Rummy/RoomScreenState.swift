import ParlorClient
import ParlorRules
import ParlorWire

/// Everything the room screen shows, and what the keys do to it. A plain value: the session feeds it
/// events and keys, and `RoomScreen.render` draws it.
public struct RoomScreenState: Sendable, Equatable {
    public enum InputMode: Sendable, Equatable {
        case normal
        /// Typing a score: for whom, for which round, the digits so far.
        case enteringScore(player: UserID, round: Int, digits: String)
        /// The moderator typed a score for someone else: entered only after a `y`.
        case confirmingScore(player: UserID, round: Int, score: Int)
        case confirmingLeave
        /// After `/`: a typed command (`/help`, `/ready`, `/start`, `/next`, `/leave`, `/quit`).
        case typingCommand(String)
        /// The moderator pressed x on this player: y removes them.
        case confirmingKick(UserID)
    }

    /// The message line. It goes stale: the session clears it after `seconds` (and an error when the
    /// connection comes back), and a game replaces it when the state it speaks of changes.
    public typealias Message = ScreenMessage

    public var server: String
    public var code: String
    public var room: GameRoom?
    /// The room was deleted while we watched.
    public var roomDeleted = false
    /// Who this terminal is signed in as.
    public var me: UserID?
    public var connection: ConnectionState = .connecting
    /// Who of the players is connected, as the server last said (nil until it has).
    public var presence: PresenceView?
    /// Who may join and watch, from the game's `access` events (the status bar's "private", "locked").
    public var access: GameAccessView?
    public var message: Message?
    public var mode: InputMode = .normal
    /// The player the cursor is on (the moderator enters scores for others with it).
    public var selected: UserID?

    /// The highest score one round can have, as the keys accept it.
    static let maxScoreDigits = 4

    public init(server: String, code: String, room: GameRoom? = nil, me: UserID? = nil) {
        self.server = server
        self.code = code
        self.room = room
        self.me = me
    }

    public var mySeat: GameRoom.Player? {
        guard let me else { return nil }
        return room?.players.first { $0.id == me }
    }

    public var isModerator: Bool { mySeat?.isModerator == true }

    /// The player whose row the cursor is on: the selection if it is still seated, else oneself.
    public var selectedPlayer: GameRoom.Player? {
        if let selected, let player = room?.players.first(where: { $0.id == selected }) { return player }
        return mySeat ?? room?.players.first
    }

    // MARK: Keys

    /// Applies a key; returns the action it asks for, if any.
    public mutating func handle(_ key: Key) -> RoomAction? {
        switch mode {
        case .normal: return handleNormal(key)
        case .enteringScore(let player, let round, let digits): return handleScoreEntry(key, player: player, round: round, digits: digits)
        case .confirmingScore(let player, let round, let score):
            mode = .normal
            guard key == .character("y") || key == .character("Y") else {
                message = Message("Nothing was entered.")
                return nil
            }
            return .submitScore(player: player, round: round, score: score)
        case .confirmingLeave: return handleLeaveConfirmation(key)
        case .typingCommand(let text): return handleCommandLine(key, text: text)
        case .confirmingKick(let player):
            mode = .normal
            return key == .character("y") || key == .character("Y") ? .kick(player) : nil
        }
    }

    /// Every key of the room screen, for `?` and `/help`.
    public static let helpText =
        "Keys: r ready · s start · ↑↓ player · e enter score · n next round · x remove (moderator) · m rematch (moderator, at the end) · l leave · q quit (keeps your seat) · / command"

    private mutating func handleNormal(_ key: Key) -> RoomAction? {
        switch key {
        case .character("q"), .character("Q"), .interrupt, .endOfInput:
            return .quit
        case .character("?"):
            message = Message(Self.helpText, seconds: 30)
        case .character("/"):
            mode = .typingCommand("")
        case .up, .character("k"):
            if isModerator { moveSelection(by: -1) }
        case .down, .character("j"), .tab:
            if isModerator { moveSelection(by: 1) }
        case .character("r"), .character("R"):
            return readyToggle()
        case .character("s"), .character("S"):
            guard requireSeat() != nil else { return nil }
            return .start
        case .character("n"), .character("N"):
            guard requireSeat() != nil else { return nil }
            return .nextRound
        case .character("e"), .character("E"):
            openScoreEntry()
        case .character("l"), .character("L"):
            askToLeave()
        case .character("m"), .character("M"):
            guard let seat = requireSeat(), let room else { return nil }
            guard seat.isModerator, room.isFinished else {
                message = Message(room.isFinished ? "Only the moderator can start a rematch." : "A rematch starts once the game is over.", isError: true)
                return nil
            }
            return .rematch
        case .character("x"), .character("X"):
            guard let seat = requireSeat(), let player = selectedPlayer else { return nil }
            guard seat.isModerator else {
                message = Message("Only the moderator can remove a player.", isError: true)
                return nil
            }
            guard player.id != seat.id else {
                message = Message("To give up your own seat, press l.", isError: true)
                return nil
            }
            mode = .confirmingKick(player.id)
            message = nil
        default:
            break
        }
        return nil
    }

    private mutating func readyToggle() -> RoomAction? {
        guard let seat = requireSeat() else { return nil }
        return .setReady(!seat.isReady)
    }

    /// The prompt opens on the selected row for the moderator, on one's own row for everyone else (only
    /// the moderator may enter someone else's score).
    private mutating func openScoreEntry() {
        guard let seat = requireSeat(), let room else { return }
        guard room.isStarted, !room.isFinished else {
            message = Message(room.isFinished ? "The game is over; scores can no longer change." : "Scores open when the game starts.", isError: true)
            return
        }
        let player = seat.isModerator ? (selectedPlayer ?? seat) : seat
        mode = .enteringScore(player: player.id, round: room.currentRound, digits: "")
        message = nil
    }

    /// After the end the row stays in the results: leaving would take it off everyone's grid.
    private mutating func askToLeave() {
        guard requireSeat() != nil else { return }
        if room?.isFinished == true {
            message = Message("The game is over; your row stays in the results. q closes the screen.")
            return
        }
        mode = .confirmingLeave
        message = nil
    }

    private mutating func handleScoreEntry(_ key: Key, player: UserID, round: Int, digits: String) -> RoomAction? {
        switch key {
        case .character(let character) where character.isASCII && character.isNumber:
            guard digits.count < Self.maxScoreDigits else { return nil }
            mode = .enteringScore(player: player, round: round, digits: digits == "0" ? String(character) : digits + String(character))
        case .backspace:
            mode = .enteringScore(player: player, round: round, digits: String(digits.dropLast()))
        case .left:
            mode = .enteringScore(player: player, round: max(round - 1, 1), digits: digits)
        case .right:
            mode = .enteringScore(player: player, round: min(round + 1, room?.currentRound ?? round), digits: digits)
        case .enter:
            mode = .normal
            guard let score = Int(digits) else { return nil }
            if player != me {
                mode = .confirmingScore(player: player, round: round, score: score)
                return nil
            }
            return .submitScore(player: player, round: round, score: score)
        case .escape, .interrupt:
            mode = .normal
        default:
            break
        }
        return nil
    }

    private mutating func handleCommandLine(_ key: Key, text: String) -> RoomAction? {
        var typed = text
        if key == .backspace && typed.isEmpty {
            mode = .normal
            return nil
        }
        if typed.edit(with: key, limit: 20) {
            mode = .typingCommand(typed)
            return nil
        }
        switch key {
        case .enter:
            mode = .normal
            switch typed.trimmedLine.lowercased() {
            case "help", "h", "?": message = Message(Self.helpText, seconds: 30)
            case "quit", "exit", "q": return .quit
            case "leave": askToLeave()
            case "ready": return readyToggle()
            case "start":
                guard requireSeat() != nil else { return nil }
                return .start
            case "next":
                guard requireSeat() != nil else { return nil }
                return .nextRound
            case "score": openScoreEntry()
            case "": break
            default:
                message = Message("Unknown command \"/\(typed.trimmedLine)\"; /help lists the keys.", isError: true)
            }
        case .escape, .interrupt:
            mode = .normal
        case .endOfInput:
            if typed.isEmpty { mode = .normal }
        default:
            break
        }
        return nil
    }

    private mutating func handleLeaveConfirmation(_ key: Key) -> RoomAction? {
        mode = .normal
        if key == .character("y") || key == .character("Y") { return .leave }
        return nil
    }

    private mutating func requireSeat() -> GameRoom.Player? {
        if let seat = mySeat { return seat }
        message = Message("You are watching this room; join it to play (parlor join \(code)).", isError: true)
        return nil
    }

    private mutating func moveSelection(by step: Int) {
        guard let players = room?.players, !players.isEmpty else { return }
        let current = selectedPlayer.flatMap { player in players.firstIndex { $0.id == player.id } } ?? 0
        // No wrap-around: at the top ↑ stays, so a held key never lands on the wrong end of the table.
        let next = min(max(current + step, 0), players.count - 1)
        selected = players[next].id
    }
}
