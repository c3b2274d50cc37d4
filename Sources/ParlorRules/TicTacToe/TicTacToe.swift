/// A game of tic-tac-toe: two players, X (who created it) and O (who joined), take turns marking a
/// cell of a 3×3 board; three in a row wins, a full board is a draw. Anyone may watch. A finished game
/// is filed in both players' history, and may be played again (`Rematchable`).
public struct TicTacToe: GameRules, Codable, Equatable {
    public typealias Action = TicTacToeAction
    public typealias Failure = TicTacToeError
    public typealias Event = TicTacToeAction
    public typealias PublicView = TicTacToeView

    public struct Seat: Sendable, Codable, Equatable {
        public let playerId: UserID
        public let name: String
    }

    public let id: String
    public let code: TicTacToeCode
    public let createdAt: Instant
    /// X first, then O.
    public private(set) var seats: [Seat]
    /// Nine cells, row by row: the index of the seat that marked it.
    public private(set) var board: [Int?]
    public private(set) var finishedAt: Instant?
    /// The seat that won; nil for a draw or a game not over.
    public private(set) var winner: Int?
    public private(set) var rematch: TicTacToeCode?
    public private(set) var version: Int

    public static let maxNameCharacters = 30
    public static let lines: [[Int]] = [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]]

    public static func create(id: String, code: TicTacToeCode, creator: UserID, playerName: String, at now: Instant) throws(TicTacToeError) -> TicTacToe {
        TicTacToe(
            id: id, code: code, createdAt: now, seats: [Seat(playerId: creator, name: try name(playerName))],
            board: Array(repeating: nil, count: 9), finishedAt: nil, winner: nil, rematch: nil, version: 1)
    }

    public var members: [UserID] { seats.map(\.playerId) }
    public var isFinished: Bool { finishedAt != nil }
    public var stage: GameStage { isFinished ? .finished : seats.count == 2 ? .playing : .waiting }
    /// Only an unfinished game whose players are gone may expire; a finished one waits for its rematch.
    public var owner: UserID? { isFinished ? nil : seats.first?.playerId }

    /// The seat to play: X on even turns.
    public var next: Int? {
        guard !isFinished, seats.count == 2 else { return nil }
        return board.compactMap { $0 }.count % 2
    }

    public mutating func apply(_ action: TicTacToeAction, by caller: Caller, at now: Instant, in _: Void) throws(TicTacToeError) -> GameOutcome<TicTacToe> {
        guard let user = caller.user else { throw .invalidState(reason: "Tic-tac-toe has no timers.") }
        switch action {
        case .join(let playerName):
            if seats.contains(where: { $0.playerId == user }) { return GameOutcome() }
            guard !isFinished else { throw .invalidState(reason: "This game is over.") }
            guard seats.count < 2 else { throw .full }
            seats.append(Seat(playerId: user, name: try Self.name(playerName)))
        case .place(let cell):
            guard let seat = seats.firstIndex(where: { $0.playerId == user }) else { throw .notPlayer }
            guard board.indices.contains(cell) else { throw .invalidInput(reason: "cell must be between 0 and 8 (got \(cell)).") }
            guard let next else {
                throw .invalidState(reason: isFinished ? "This game is over." : "The game starts when a second player joins.")
            }
            guard seat == next else { throw .notYourTurn(next: seats[next].name) }
            guard board[cell] == nil else { throw .cellTaken(cell: cell) }
            board[cell] = seat
            if Self.lines.contains(where: { $0.allSatisfy { board[$0] == seat } }) {
                return finish(winner: seat, at: now, action: action)
            }
            if !board.contains(nil) { return finish(winner: nil, at: now, action: action) }
        case .leave:
            guard let seat = seats.firstIndex(where: { $0.playerId == user }) else { throw .notPlayer }
            if next != nil { return finish(winner: 1 - seat, at: now, action: action) }
            guard !isFinished else { return GameOutcome() }
            seats.remove(at: seat)
            version += 1
            return GameOutcome(events: [action], effects: seats.isEmpty ? [.delete] : [])
        case .removePlayer(let player):
            try remove(player, by: user)
            version += 1
            return GameOutcome(events: [action])
        case .recordRematch(let code):
            guard isFinished else { throw .invalidState(reason: "The game is not over yet; a rematch starts once it is.") }
            if let rematch { throw .invalidState(reason: "A rematch was already started: game \(rematch).") }
            rematch = TicTacToeCode(uncheckedRawValue: code)
        }
        version += 1
        return GameOutcome(events: [action])
    }

    /// See `TicTacToe+Kick` for what a removal does.
    private mutating func remove(_ player: UserID, by user: UserID) throws(TicTacToeError) {
        guard members.contains(user) else { throw .notPlayer }
        guard user == seats[0].playerId else { throw .notHost(action: "remove a player") }
        guard let seat = seats.firstIndex(where: { $0.playerId == player }) else { throw .playerNotFound(playerId: player.rawValue) }
        guard seat != 0 else { throw .invalidState(reason: "You cannot remove yourself; leave the game instead.") }
        guard !isFinished else { throw .invalidState(reason: "This game is over; it stays as it was played.") }
        seats.remove(at: seat)
        board = Array(repeating: nil, count: 9)
    }

    private mutating func finish(winner: Int?, at now: Instant, action: TicTacToeAction) -> GameOutcome<TicTacToe> {
        self.winner = winner
        finishedAt = now
        version += 1
        let archive = GameArchive(key: "\(id)@\(createdAt.millisecondsSinceEpoch)", players: members, finishedAt: now)
        return GameOutcome(events: [action], effects: [.archive(archive)])
    }

    private static func name(_ text: String) throws(TicTacToeError) -> String {
        switch DisplayName.validate(text, maxCharacters: maxNameCharacters) {
        case .success(let name): return name
        case .failure(let problem): throw .invalidInput(reason: DisplayName.sentence(for: problem, field: "playerName"))
        }
    }

    public var publicView: TicTacToeView { TicTacToeView(self) }
}

extension TicTacToe: Rematchable {
    public var rematchCode: String? { rematch?.rawValue }

    /// The same two players, O now first to play as X.
    public func rematch(by user: UserID, id: String, code: String, at now: Instant) throws(TicTacToeError) -> TicTacToe {
        guard members.contains(user) else { throw .notPlayer }
        guard isFinished, seats.count == 2 else { throw .invalidState(reason: "The game is not over yet; a rematch starts once it is.") }
        var next = try TicTacToe.create(
            id: id, code: TicTacToeCode(uncheckedRawValue: code), creator: seats[1].playerId, playerName: seats[1].name, at: now)
        next.seats.append(seats[0])
        return next
    }

    public static func recordRematch(code: String) -> TicTacToeAction { .recordRematch(code: code) }
}
