import ParlorClient
import ParlorRules
import ParlorWire

/// Everything the lobby screen shows, and what typing does to it. A plain value: the session feeds it
/// events, keys and the time, and `LobbyScreen.render` draws it.
public struct LobbyScreenState: Sendable, Equatable {
    public typealias Message = ScreenMessage

    /// The longest line the input accepts (a word is at most 64 characters; commands carry a game id).
    public static let maxInputCharacters = 120

    public var server: String
    public var code: String
    public var lobbyId: String
    public var lobby: LobbyView?
    /// Your own words in the running round, as the server last sent them.
    public var words: PlayerWordsView?
    /// The lobby was deleted while we watched.
    public var deleted = false
    /// The player a `/kick` asked to remove, until the same `/kick` again confirms it (or anything else
    /// is typed).
    public var pendingRemoval: UserID?
    /// Watching by the code without a seat (`parlor watch CODE`): the public view only.
    public var watching = false
    /// Who this terminal is signed in as.
    public var me: UserID?
    public var connection: ConnectionState = .connecting
    /// Who of the players is connected, as the server last said (nil until it has).
    public var presence: PresenceView?
    /// Who may join and watch, from the game's `access` events (the status bar's "private", "locked").
    public var access: GameAccessView?
    public var message: Message?
    /// What has been typed since the last Enter.
    public var input = ""
    /// This device's clock, as of the last event or tick.
    public var now: Instant
    /// How far the server's clock is ahead of this device's (negative: behind), from the last `lobby`
    /// event's `serverTime`; deadlines are on the server's clock.
    public var clockOffsetMilliseconds: Int64 = 0

    public init(
        server: String, code: String, lobbyId: String, lobby: LobbyView? = nil, words: PlayerWordsView? = nil,
        me: UserID? = nil, now: Instant = .epoch
    ) {
        self.server = server
        self.code = code
        self.lobbyId = lobbyId
        self.lobby = lobby
        self.words = words
        self.me = me
        self.now = now
    }

    // MARK: Derived

    public var myPlayer: LobbyView.Player? {
        guard let me else { return nil }
        return lobby?.players.first { $0.userId == me }
    }

    public var isCreator: Bool { me != nil && lobby?.creator == me }

    public var creatorName: String? {
        guard let lobby else { return nil }
        return lobby.players.first { $0.userId == lobby.creator }?.username
    }

    /// The running round, if the lobby is in one.
    public var round: LobbyView.Round? {
        guard let lobby, lobby.status == .game else { return nil }
        return lobby.round
    }

    /// The server's clock now, as far as this device can tell.
    public var serverNow: Instant { now.adding(milliseconds: clockOffsetMilliseconds) }

    /// Milliseconds until the running round's deadline (0 once it has passed); nil between rounds.
    public var millisecondsLeft: Int64? {
        guard let round else { return nil }
        return max(serverNow.milliseconds(until: round.deadline), 0)
    }

    /// Your words of the running round (none between rounds, or from an older round).
    public var myWords: [WordVerdictResult] {
        guard let words, let round, words.round == round.number else { return [] }
        return words.words
    }

    // MARK: Updates

    /// Takes a newer public view, received when this device's clock read `receivedAt`. Older or equal
    /// versions are ignored (returns false).
    public mutating func receive(_ view: LobbyView, at receivedAt: Instant) -> Bool {
        if let current = lobby, view.version <= current.version { return false }
        lobby = view
        if lobbyId.isEmpty { lobbyId = view.lobbyId }
        deleted = false
        now = receivedAt
        if let offset = receivedAt.milliseconds(untilServerTime: view.serverTime) { clockOffsetMilliseconds = offset }
        return true
    }

    /// Takes your newer private view; returns whether what it shows changed (round or words).
    public mutating func receive(_ view: PlayerWordsView) -> Bool {
        if let current = words, view.version <= current.version { return false }
        let changed = words?.round != view.round || words?.words != view.words
        words = view
        return changed
    }

    /// The seated player called `name` (ignoring case) whom you may remove: you must be the creator,
    /// and it cannot be you.
    public func removal(named name: String) -> Result<LobbyView.Player, ScriptCommandError> {
        guard isCreator else {
            return .failure(ScriptCommandError("Only the lobby's creator (\(creatorName ?? "someone else")) can remove a player."))
        }
        let wanted = name.lowercased()
        guard let player = lobby?.players.first(where: { $0.username.lowercased() == wanted }) else {
            return .failure(ScriptCommandError("Nobody called \(name) sits in this lobby."))
        }
        guard player.userId != me else { return .failure(ScriptCommandError("To give up your own seat, type /leave.")) }
        return .success(player)
    }

    // MARK: Keys

    /// Applies a key; returns the action it asks for, if any. Printable keys type; Enter sends the line
    /// (a word, or a `/` command); Esc and Ctrl-C quit.
    public mutating func handle(_ key: Key) -> LobbyAction? {
        if input.edit(with: key, limit: Self.maxInputCharacters) { return nil }
        switch key {
        case .enter:
            let line = input
            input = ""
            let pending = pendingRemoval
            pendingRemoval = nil
            if HelpRequest.matches(line) {
                message = Message(HelpRequest.sentence(typing: "a word", commands: LobbyInput.helpCommands), seconds: 30)
                return nil
            }
            switch LobbyInput.parseTyped(line) {
            case nil: return nil
            case .success(.action(let action))?: return action
            case .success(.showLobby)?: return nil
            case .success(.kick(let name))?:
                switch removal(named: name) {
                case .success(let player) where player.userId == pending:
                    return .remove(player.userId)
                case .success(let player):
                    pendingRemoval = player.userId
                    message = Message("Remove \(player.username) from the lobby? Type /kick \(name) again to confirm.")
                case .failure(let error):
                    message = Message(error.message, isError: true)
                }
            case .failure(let error)?: message = Message(error.message, isError: true)
            }
        case .escape, .interrupt:
            return .quit
        case .endOfInput:
            if input.isEmpty { return .quit }
        case .tab, .up, .down, .left, .right, .home, .end, .character, .backspace:
            break
        }
        return nil
    }
}
