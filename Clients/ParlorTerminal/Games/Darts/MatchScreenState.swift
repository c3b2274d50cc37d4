import ParlorClient
import ParlorRules
import ParlorWire

/// Everything the darts scoreboard shows, and what typing does to it. A plain value: the session feeds
/// it events and keys, and `MatchScreen.render` draws it.
public struct MatchScreenState: Sendable, Equatable {
    public typealias Message = ScreenMessage

    /// The longest line the input accepts (three darts, or a command with a guest's name).
    public static let maxInputCharacters = 80

    public var server: String
    public var code: String
    public var match: MatchView?
    /// The match was deleted while we watched.
    public var deleted = false
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
    /// The number of the visit being replaced (↑ started an edit); nil while entering new visits.
    public var editing: Int?

    public init(server: String, code: String, match: MatchView? = nil, me: UserID? = nil) {
        self.server = server
        self.code = code
        self.match = match
        self.me = me
    }

    // MARK: Derived

    public var mySeat: MatchView.Player? {
        guard let me else { return nil }
        return match?.players.first { $0.id == me }
    }

    public var isHost: Bool { me != nil && match?.hostId == me }

    /// The player to throw, while the match is played.
    public var thrower: MatchView.Player? {
        guard let id = match?.currentPlayerId else { return nil }
        return match?.players.first { $0.id == id }
    }

    /// Whether this terminal may enter the thrower's visit: the thrower, or the host.
    public var entersVisits: Bool {
        guard let thrower else { return false }
        return isHost || (thrower.id == me && !thrower.hasLeft)
    }

    /// The last visit as it was entered — its darts, or its total — for an edit to start from. Nil when
    /// the view no longer shows it: it won the previous leg, and the current one has no visit yet.
    public var lastVisitText: String? {
        guard let last = match?.lastVisit, let player = match?.players.first(where: { $0.id == last.playerId }),
              let visit = player.visits.last
        else { return nil }
        return visit.darts?.joined(separator: " ") ?? String(visit.total)
    }

    // MARK: Updates

    /// Takes a newer view; older or equal versions are ignored (returns false). An edit in progress
    /// ends when the visit it replaces is no longer the last.
    public mutating func receive(_ view: MatchView) -> Bool {
        if let current = match, view.version <= current.version { return false }
        match = view
        deleted = false
        if let editing, view.lastVisit?.number != editing || view.status != "playing" {
            self.editing = nil
            input = ""
        }
        return true
    }

    // MARK: Keys

    /// Applies a key; returns the action it asks for, if any. Printable keys type; Enter sends the line
    /// (a visit, or a `/` command); ↑ starts replacing the last visit (Enter sends the replacement, Esc
    /// gives up); Esc and Ctrl-C otherwise quit.
    public mutating func handle(_ key: Key) -> MatchAction? {
        if input.edit(with: key, limit: Self.maxInputCharacters) { return nil }
        switch key {
        case .up:
            startEditing()
        case .enter:
            let line = input
            input = ""
            if HelpRequest.matches(line) {
                message = Message(HelpRequest.sentence(typing: "a visit (T20 T20 D16 or 100)", commands: MatchInput.helpCommands), seconds: 30)
                return nil
            }
            let number = editing
            editing = nil
            switch MatchInput.parseTyped(line) {
            case nil: return nil
            case .success(let typed)?:
                if let number, case .visit(let darts, let total) = typed { return .edit(visit: number, darts: darts, total: total) }
                return action(for: typed)
            case .failure(let error)?:
                message = Message(error.message, isError: true)
            }
        case .escape:
            guard editing == nil else {
                editing = nil
                input = ""
                message = nil
                return nil
            }
            return .quit
        case .interrupt:
            return .quit
        case .endOfInput:
            if input.isEmpty { return .quit }
        case .tab, .down, .left, .right, .home, .end, .character, .backspace:
            break
        }
        return nil
    }

    /// What a typed or scripted line asks for, or nil (with a message) when it cannot be done from here.
    public mutating func action(for input: MatchInput) -> MatchAction? {
        switch input {
        case .visit(let darts, let total):
            guard let thrower else {
                message = Message(match?.status == "finished" ? "The match is over." : "The match has not started yet.", isError: true)
                return nil
            }
            return .visit(player: thrower.id, darts: darts, total: total)
        case .edit(let visit, let darts, let total): return .edit(visit: visit, darts: darts, total: total)
        case .undo(let visit): return .undo(visit: visit ?? match?.lastVisit?.number)
        case .addGuest(let name): return .addGuest(name: name)
        case .start: return .start
        case .rematch: return rematch()
        case .kick(let name):
            let seats = match?.players.filter { !$0.hasLeft }.map { KickRule.Seat(id: $0.id, name: $0.name) } ?? []
            return KickRule.target(named: name, among: seats, me: me, host: match?.hostId, place: "match") {
                message = Message($0, isError: true)
            }.map { .kick($0) }
        case .leave: return .leave
        case .quit: return .quit
        case .showMatch: return nil
        }
    }

    /// The host of a finished match asks for the next one; anyone else is told why not.
    private mutating func rematch() -> MatchAction? {
        let host = match?.players.first { $0.id == match?.hostId }?.name
        if let refusal = RematchRule.refusal(over: match?.status == "finished", isHost: isHost, host: host, place: "match") {
            message = Message(refusal, isError: true)
            return nil
        }
        return .rematch
    }

    private mutating func startEditing() {
        guard let last = match?.lastVisit, match?.status == "playing" else {
            message = Message("There is no visit to edit.", isError: true)
            return
        }
        guard isHost || last.recordedBy == me else {
            message = Message("Only the host or whoever entered it can edit the last visit.", isError: true)
            return
        }
        editing = last.number
        input = lastVisitText ?? ""
        message = Message("Editing visit #\(last.number): change it and press Enter, or Esc to keep it.")
    }
}
