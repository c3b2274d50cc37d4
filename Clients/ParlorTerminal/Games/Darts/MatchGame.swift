import ParlorClient
import ParlorRules
import ParlorWire

/// Darts matches on the terminal: create (with guests), join or watch a match by its code; typing and
/// `/` commands are `MatchScreenState.handle` and `MatchInput`; the screen is `MatchScreen`. A finished
/// match's rematch takes the session on to it, seated or watching.
struct MatchGame: EndsOnTheLeavesAnswer {
    enum Entry: Sendable {
        case create(CreateMatchArguments, guests: [String])
        case join(code: String, playerName: String)
        case watch(code: String)
    }

    static let render = MatchScreen.render
    static let placeName = "match"

    var screen: MatchScreenState
    var leaving = false

    init(screen: MatchScreenState) {
        self.screen = screen
    }

    // MARK: Reactions

    /// A match from the stream (nil: deleted); an older or equal version than shown is not news.
    mutating func receive(_ match: MatchView?, at _: Instant, mode _: SessionMode) -> Step {
        guard let match else { return deletion(.match(nil)) }
        let seated = screen.match.map(Self.seated) ?? []
        guard screen.receive(match) else { return Step() }
        if let removal = removal(seatedBefore: seated, now: Self.seated(match), outputs: [.match(match)]) { return removal }
        if let rematch = match.rematch {
            // The players are seated in the rematch already; everyone following goes on to it.
            return Step(outputs: [.match(match), .rematch(code: rematch)], ending: .rematch(code: rematch))
        }
        return Step(outputs: [.match(match)])
    }

    mutating func press(_ key: Key) -> MatchAction? {
        if key == .enter || key == .up { screen.message = nil }
        return screen.handle(key)
    }

    func scriptRequest(_ line: String) -> Result<ScriptRequest<MatchAction>, ScriptCommandError>? {
        MatchInput.parseScript(line).map { parsed in
            parsed.flatMap { input in
                if input == .showMatch { return .success(.show) }
                var screen = screen
                guard let action = screen.action(for: input) else {
                    return .failure(ScriptCommandError(screen.message?.text ?? "That cannot be done now."))
                }
                return .success(.action(action))
            }
        }
    }

    var snapshot: [MatchOutput] {
        screen.match.map { [.match($0)] } ?? []
    }

    /// The reply's match comes first (the stream's copy of it is then not repeated), then what was done.
    mutating func succeeded(_ action: MatchAction, with match: MatchView?, mode: SessionMode) -> Step {
        var step = Step()
        if let match, screen.receive(match) { step.outputs.append(.match(match)) }
        step.outputs.append(.done(action))
        if !leaveAnswered(action, &step), mode == .interactive {
            screen.message = Self.confirmation(action, screen: screen).map { ScreenMessage($0) }
        }
        return step
    }

    mutating func failed(_ action: MatchAction, with error: ParlorClientError) -> Step {
        failure(action, error)
    }

    func farewellAfterQuit(clientArguments: [String]) -> String? {
        guard !screen.deleted else { return nil }
        return ComeBackCommand.farewell(
            game: ["parlor", "darts"], place: "match", code: screen.code, seated: screen.mySeat != nil, clientArguments: clientArguments)
    }

    /// What the message line says after an action went through.
    static func confirmation(_ action: MatchAction, screen: MatchScreenState) -> String? {
        guard let match = screen.match else { return nil }
        switch action {
        case .visit, .edit:
            if match.status == "finished" {
                return "\(match.players.first { $0.id == match.winnerId }?.name ?? "Somebody") wins the match!"
            }
            guard let last = match.lastVisit, let player = match.players.first(where: { $0.id == last.playerId }) else { return nil }
            let scored = player.visits.last.map { $0.isBust ? "bust" : $0.isCheckout ? "checkout!" : "\($0.total)" }
            let leg = player.visits.isEmpty ? "\(player.name) wins the leg!" : "\(player.name): \(scored ?? ""), \(player.remaining) left."
            return action.name == "edit" ? "Visit #\(last.number) replaced. " + leg : leg
        case .undo(let visit):
            let taken = visit.map { "Visit #\($0) taken back." } ?? "The last visit was taken back."
            guard let thrower = match.players.first(where: { $0.id == match.currentPlayerId }) else { return taken }
            return taken + " \(thrower.name) to throw, \(thrower.remaining) left."
        case .addGuest(let name): return "\(name) joins as a guest; you enter their visits."
        case .start: return "The match has started."
        case .kick: return "The player was removed."
        case .rematch, .leave, .quit: return nil
        }
    }

    // MARK: The server

    static func enter(
        _ entry: Entry, client: ParlorClient
    ) async throws(ParlorClientError) -> (screen: MatchScreenState, outputs: [MatchOutput]) {
        var seat: MatchSeatResult
        switch entry {
        case .create(let arguments, let guests):
            seat = try await client.createMatch(arguments)
            for guest in guests {
                seat = MatchSeatResult(match: try await client.addGuest(code: seat.match.id, name: guest), currentUserId: seat.currentUserId)
            }
        case .join(let code, let playerName):
            seat = try await client.joinMatch(code: code, playerName: playerName)
        case .watch(let code):
            return (MatchScreenState(server: client.server.url, code: code), [])
        }
        let screen = MatchScreenState(server: client.server.url, code: seat.match.id, match: seat.match, me: seat.currentUserId)
        return (screen, [.seat(seat)])
    }

    static func follow(_ screen: MatchScreenState, client: ParlorClient) async throws(ParlorClientError) -> AsyncStream<MatchView?> {
        try await client.observeMatch(code: screen.code)
    }

    /// The match the server answers with, if any.
    static func perform(
        _ action: MatchAction, in screen: MatchScreenState, client: ParlorClient
    ) async throws(ParlorClientError) -> MatchView? {
        let code = screen.code
        switch action {
        case .addGuest(let name): return try await client.addGuest(code: code, name: name)
        case .start: return try await client.startMatch(code: code)
        case .visit(let player, let darts, let total): return try await client.recordVisit(code: code, playerId: player, darts: darts, total: total)
        case .edit(let visit, let darts, let total): return try await client.editLastVisit(code: code, visit: visit, darts: darts, total: total)
        case .undo(let visit): return try await client.call(Operation.undoLastVisit, UndoLastVisitArguments(code: code, visit: visit))
        case .kick(let player): return try await client.removePlayer(code: code, playerId: player)
        case .rematch:
            // The rematch's code comes on the old match's stream too, and the session follows it there.
            _ = try await client.rematchMatch(code: code)
            return nil
        case .leave:
            try await client.leaveMatch(code: code)
            return nil
        case .quit: return nil
        }
    }

    /// The players whose seats are theirs now (not those who left).
    private static func seated(_ match: MatchView) -> [UserID] { match.players.filter { !$0.hasLeft }.map(\.id) }

    static func refusal(_ error: ParlorClientError, entering _: Entry) -> String {
        error.description
    }

    /// The players are seated in the rematch already: watching it is taking the seat.
    static func rematchEntry(code: String, from _: MatchScreenState) -> Entry? { .watch(code: code) }
}

extension MatchScreenState: DeletableScreen {}
extension MatchAction: GameAction {}
