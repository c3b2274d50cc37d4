import ParlorClient
import ParlorRules
import ParlorWire

/// Everything the photo quiz screen shows, and what typing does to it. A plain value: the session feeds
/// it events, ticks and keys, and `QuizScreen.render` draws it.
public struct QuizScreenState: Sendable, Equatable {
    public typealias Message = ScreenMessage

    /// The longest line the input accepts (a place's name with its country and region).
    public static let maxInputCharacters = 80

    public var server: String
    public var code: String
    public var quiz: QuizView?
    /// The quiz was deleted while we watched.
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
    /// Where this terminal's last guess at the current photo points, as typed.
    public var myGuess: (photoId: String, text: String)?
    /// Place names for typed guesses.
    public var places: PlaceLookup?
    /// This device's clock, as of the last event or tick.
    public var now: Instant
    /// How far the server's clock is ahead of this device's (negative: behind), from the last view's
    /// `serverTime`; deadlines are on the server's clock.
    public var clockOffsetMilliseconds: Int64 = 0

    public init(server: String, code: String, quiz: QuizView? = nil, me: UserID? = nil, places: PlaceLookup? = nil, now: Instant = .epoch) {
        self.server = server
        self.code = code
        self.quiz = quiz
        self.me = me
        self.places = places
        self.now = now
    }

    public static func == (lhs: QuizScreenState, rhs: QuizScreenState) -> Bool {
        lhs.server == rhs.server && lhs.code == rhs.code && lhs.quiz == rhs.quiz && lhs.deleted == rhs.deleted && lhs.me == rhs.me
            && lhs.connection == rhs.connection && lhs.message == rhs.message && lhs.input == rhs.input
            && lhs.myGuess?.photoId == rhs.myGuess?.photoId && lhs.myGuess?.text == rhs.myGuess?.text && lhs.places == rhs.places
            && lhs.now == rhs.now && lhs.clockOffsetMilliseconds == rhs.clockOffsetMilliseconds
    }

    // MARK: Derived

    public var myPlayer: QuizView.Player? {
        guard let me else { return nil }
        return quiz?.players.first { $0.id == me }
    }

    public var isHost: Bool { me != nil && quiz?.hostId == me }

    public func name(of id: UserID) -> String {
        quiz?.players.first { $0.id == id }?.name ?? "someone who left"
    }

    /// This terminal may guess the current photo: a player, the photo not theirs, not yet revealed.
    public var mayGuess: Bool {
        guard let quiz, quiz.phase == .revealing, let photo = quiz.currentPhoto, let me else { return false }
        return myPlayer != nil && photo.uploadedBy != me
    }

    /// The server's clock now, as far as this device can tell.
    public var serverNow: Instant { now.adding(milliseconds: clockOffsetMilliseconds) }

    /// Milliseconds until guessing closes (0 once it has); nil unless a photo is being revealed.
    public var millisecondsLeft: Int64? {
        guard let quiz, quiz.phase == .revealing, let deadline = quiz.currentPhoto?.guessDeadline else { return nil }
        return max(serverNow.milliseconds(until: deadline), 0)
    }

    /// The typed text of this terminal's guess at the current photo, if it made one.
    public var myGuessText: String? {
        guard let guess = myGuess, guess.photoId == quiz?.currentPhoto?.photoId else { return nil }
        return guess.text
    }

    // MARK: Updates

    /// Takes a newer view, received when this device's clock read `receivedAt`; older or equal versions
    /// are ignored (returns false).
    public mutating func receive(_ view: QuizView, at receivedAt: Instant) -> Bool {
        if let current = quiz, view.version <= current.version { return false }
        quiz = view
        deleted = false
        now = receivedAt
        if let offset = receivedAt.milliseconds(untilServerTime: view.serverTime) { clockOffsetMilliseconds = offset }
        return true
    }

    // MARK: Keys

    /// Applies a key; returns the action it asks for, if any. Printable keys type; Enter sends the line
    /// (a guess, or a `/` command); Esc and Ctrl-C quit.
    public mutating func handle(_ key: Key) -> QuizAction? {
        if input.edit(with: key, limit: Self.maxInputCharacters) { return nil }
        switch key {
        case .enter:
            let line = input
            input = ""
            if HelpRequest.matches(line) {
                message = Message(HelpRequest.sentence(typing: "a guess (48.85, 2.35 or Lyon)", commands: QuizInput.helpCommands), seconds: 30)
                return nil
            }
            switch QuizInput.parseTyped(line) {
            case nil: return nil
            case .success(let typed)?: return action(for: typed)
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

    /// What a typed or scripted line asks for, or nil (with a message) when it cannot be done from here.
    public mutating func action(for input: QuizInput) -> QuizAction? {
        switch input {
        case .guess(let text):
            guard mayGuess else {
                message = Message(guessRefusal, isError: true)
                return nil
            }
            switch places?.resolve(text) ?? QuizGuessText.resolve(text, places: nil, placesState: "There are no places to look names up in") {
            case .success(let resolved):
                return .guess(latitude: resolved.latitude, longitude: resolved.longitude, place: resolved.place)
            case .failure(let error):
                message = Message(error.message, isError: true)
                return nil
            }
        case .start: return .start
        case .reveal: return .reveal
        case .next: return .next
        case .end: return .end
        case .rematch: return rematch()
        case .kick(let name):
            let seats = quiz?.players.map { KickRule.Seat(id: $0.id, name: $0.name) } ?? []
            return KickRule.target(named: name, among: seats, me: me, host: quiz?.hostId, place: "quiz") {
                message = Message($0, isError: true)
            }.map { .kick($0) }
        case .leave: return .leave
        case .quit: return .quit
        case .showQuiz: return nil
        }
    }

    /// The host of a finished quiz asks for the next one; anyone else is told why not.
    private mutating func rematch() -> QuizAction? {
        let host = quiz?.players.first { $0.id == quiz?.hostId }?.name
        if let refusal = RematchRule.refusal(over: quiz?.phase == .complete, isHost: isHost, host: host, place: "quiz") {
            message = Message(refusal, isError: true)
            return nil
        }
        return .rematch
    }

    private var guessRefusal: String {
        guard let quiz else { return "The quiz has not loaded yet." }
        switch quiz.phase {
        case .waiting: return "The quiz has not started yet."
        case .revealed: return "This photo has been revealed; wait for the next."
        case .complete: return "The quiz is over."
        default: break
        }
        if myPlayer == nil { return "You are watching; only players guess." }
        return "This is your photo: the others guess it."
    }
}
