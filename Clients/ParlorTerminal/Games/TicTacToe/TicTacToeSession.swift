import ParlorClient
import ParlorRules
import ParlorWire

/// Tic-tac-toe on the terminal: create, join or watch a game by its code; keys are
/// `TicTacToeScreenState.handle`, the screen `TicTacToeScreen`. A finished game's rematch takes the
/// session on to it, seated or watching.
struct TicTacToeSession: EndsOnTheLeavesAnswer {
    enum Entry: Sendable {
        case create(playerName: String)
        case join(code: String, playerName: String)
        case watch(code: String)
    }

    static let render = TicTacToeScreen.render
    static let placeName = "game"

    var screen: TicTacToeScreenState
    var leaving = false

    init(screen: TicTacToeScreenState) {
        self.screen = screen
    }

    // MARK: Reactions

    mutating func receive(_ game: TicTacToeView?, at _: Instant, mode _: SessionMode) -> Step {
        guard let game else { return deletion(.game(nil)) }
        let seated = screen.game?.players.map(\.playerId) ?? []
        guard screen.receive(game) else { return Step() }
        if let removal = removal(seatedBefore: seated, now: game.players.map(\.playerId), outputs: [.game(game)]) { return removal }
        if let rematch = game.rematchCode {
            // Both players are seated in the rematch already; everyone following goes on to it.
            return Step(outputs: [.game(game), .rematch(code: rematch)], ending: .rematch(code: rematch))
        }
        return Step(outputs: [.game(game)])
    }

    mutating func press(_ key: Key) -> TicTacToePlay? {
        if screen.message?.isError == true { screen.message = nil }
        return screen.handle(key)
    }

    func scriptRequest(_ line: String) -> Result<ScriptRequest<TicTacToePlay>, ScriptCommandError>? {
        if let named = KickRule.named(inScript: line) {
            return named.flatMap { name in
                // The host is X, who created the game.
                KickRule.target(named: name, among: screen.seats, me: screen.me, host: screen.seats.first?.id, place: "game").map { .action(.kick($0)) }
            }
        }
        return TicTacToePlay.parseScript(line).map { parsed in
            parsed.flatMap { request in
                guard case .action(let action) = request else { return .success(request) }
                var screen = screen
                let checked: TicTacToePlay? = switch action {
                case .mark(let cell): screen.mark(cell)
                case .rematch: screen.rematch()
                case .kick: action
                case .leave: screen.leave(confirmed: true)
                case .quit: .quit
                }
                guard let checked else { return .failure(ScriptCommandError(screen.message?.text ?? "That cannot be done now.")) }
                return .success(.action(checked))
            }
        }
    }

    var snapshot: [TicTacToeOutput] { screen.game.map { [.game($0)] } ?? [] }

    mutating func succeeded(_ action: TicTacToePlay, with game: TicTacToeView?, mode: SessionMode) -> Step {
        var step = Step()
        if let game, screen.receive(game) { step.outputs.append(.game(game)) }
        step.outputs.append(.done(action))
        leaveAnswered(action, &step)
        return step
    }

    mutating func failed(_ action: TicTacToePlay, with error: ParlorClientError) -> Step {
        failure(action, error)
    }

    func farewellAfterQuit(clientArguments: [String]) -> String? {
        guard !screen.deleted else { return nil }
        return ComeBackCommand.farewell(
            game: ["parlor", "tictactoe"], place: "game", code: screen.code, seated: screen.mySeat != nil, clientArguments: clientArguments)
    }

    // MARK: The server

    static func enter(
        _ entry: Entry, client: ParlorClient
    ) async throws(ParlorClientError) -> (screen: TicTacToeScreenState, outputs: [TicTacToeOutput]) {
        let seat: TicTacToeSeatResult
        switch entry {
        case .create(let playerName): seat = try await client.createTicTacToe(playerName: playerName)
        case .join(let code, let playerName): seat = try await client.joinTicTacToe(code: code, playerName: playerName)
        case .watch(let code): return (TicTacToeScreenState(server: client.server.url, code: code), [])
        }
        let screen = TicTacToeScreenState(server: client.server.url, code: seat.ticTacToe.code, game: seat.ticTacToe, me: seat.currentUserId)
        return (screen, [.seat(seat)])
    }

    static func follow(_ screen: TicTacToeScreenState, client: ParlorClient) async throws(ParlorClientError) -> AsyncStream<TicTacToeView?> {
        try await client.follow(.ticTacToe, key: screen.code)
    }

    /// The game the server answers with, if any (the rematch's view comes on the old game's stream).
    static func perform(
        _ action: TicTacToePlay, in screen: TicTacToeScreenState, client: ParlorClient
    ) async throws(ParlorClientError) -> TicTacToeView? {
        switch action {
        case .mark(let cell): return try await client.placeMark(code: screen.code, cell: cell)
        case .kick(let player): return try await client.removeTicTacToePlayer(code: screen.code, playerId: player)
        case .rematch:
            _ = try await client.rematchTicTacToe(code: screen.code)
            return nil
        case .leave:
            try await client.leaveTicTacToe(code: screen.code)
            return nil
        case .quit: return nil
        }
    }

    static func refusal(_ error: ParlorClientError, entering _: Entry) -> String { error.description }

    /// Both players are seated in the rematch already: watching it is taking the seat.
    static func rematchEntry(code: String, from _: TicTacToeScreenState) -> Entry? { .watch(code: code) }
}

extension TicTacToeScreenState: DeletableScreen {}
extension TicTacToePlay: GameAction {}
