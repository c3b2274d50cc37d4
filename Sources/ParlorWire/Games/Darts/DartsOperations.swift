import ParlorRules

// The darts match operations (seed `darts-srs.md`), each declared once. Live matches are under
// `/darts` over HTTP; the seed's `/matches` is the finished-match history.

extension Operation {
    public static let createMatch = OperationDeclaration<CreateMatchArguments, MatchSeatResult>(
        "createMatch", routes: [.post("/darts", status: 201)])
    public static let joinMatch = OperationDeclaration<JoinMatchArguments, MatchSeatResult>(
        "joinMatch",
        routes: [.post("/darts/{code}/players") { request throws(WireError) in
            JoinMatchArguments(code: request.parameters[0], playerName: try request.body(PlayerNameBody.self).playerName)
        }])
    /// A guest the host scores for; the server makes the guest's id.
    public static let addGuest = OperationDeclaration<AddGuestArguments, MatchView>(
        "addGuest",
        routes: [.post("/darts/{code}/guests") { request throws(WireError) in
            AddGuestArguments(code: request.parameters[0], name: try request.body(GuestBody.self).name)
        }])
    /// The host removes a player or guest before the start (`DartsMatch+Kick`). Over HTTP,
    /// `DELETE /darts/{code}/players/{id}` is this or `leaveMatch`, by whose id it names.
    public static let removePlayer = OperationDeclaration<RemovePlayerArguments, MatchView>("removePlayer")
    public static let startMatch = OperationDeclaration<MatchCodeArguments, MatchView>(
        "startMatch",
        routes: [.post("/darts/{code}/start") { request throws(WireError) in MatchCodeArguments(code: request.parameters[0]) }])
    public static let leaveMatch = OperationDeclaration<MatchCodeArguments, NoResult>("leaveMatch")
    public static let recordVisit = OperationDeclaration<RecordVisitArguments, MatchView>(
        "recordVisit",
        routes: [.post("/darts/{code}/visits") { request throws(WireError) in
            let body = try request.body(VisitBody.self)
            return RecordVisitArguments(code: request.parameters[0], playerId: body.playerId, darts: body.darts, total: body.total)
        }])
    public static let editLastVisit = OperationDeclaration<EditLastVisitArguments, MatchView>(
        "editLastVisit",
        routes: [.put("/darts/{code}/visits/last") { request throws(WireError) in
            let body = try request.body(EditBody.self)
            return EditLastVisitArguments(code: request.parameters[0], visit: body.visit, darts: body.darts, total: body.total)
        }])
    /// Takes the last visit back (a dart scored by mistake): `{code, visit?}`, on the terms of `editLastVisit`.
    public static let undoLastVisit = OperationDeclaration<UndoLastVisitArguments, MatchView>(
        "undoLastVisit",
        routes: [OperationRoute("DELETE", "/darts/{code}/visits/last") { request throws(WireError) in
            UndoLastVisitArguments(code: request.parameters[0], visit: request.query["visit"].flatMap { Int($0) })
        }])
    /// The host of a finished match starts the next one — the same settings and players, the order
    /// turned by one: `{code}`, the new match's (asking again answers the same code).
    public static let rematchMatch = OperationDeclaration<MatchCodeArguments, RematchResult>(
        "rematchMatch",
        routes: [.post("/darts/{code}/rematch") { request throws(WireError) in MatchCodeArguments(code: request.parameters[0]) }])
    /// Anyone may watch a match, signed in or not (friends following from elsewhere).
    public static let observeMatch = OperationDeclaration<MatchCodeArguments, Subscribed>("observeMatch", access: .anyone)
    /// Anyone may read a match, signed in or not.
    public static let getMatch = OperationDeclaration<MatchCodeArguments, MatchView>(
        "getMatch", access: .anyone,
        routes: [.get("/darts/{code}") { request throws(WireError) in MatchCodeArguments(code: request.parameters[0]) }])
    /// The finish to suggest for a score, for a client entering dart by dart. Needs no match.
    public static let checkout = OperationDeclaration<CheckoutArguments, CheckoutResult>(
        "checkout", access: .anyone,
        routes: [.get("/checkout") { request throws(WireError) in
            guard let score = request.query["score"].flatMap({ Int($0) }), let darts = request.query["darts"].flatMap({ Int($0) }) else {
                throw WireError(.invalidInput, "Give score and darts as numbers: /checkout?score=170&darts=3&outRule=double.")
            }
            return CheckoutArguments(score: score, darts: darts, outRule: request.query["outRule"])
        }])
    /// Your finished matches, live and uploaded, newest first, in the seed's `matches` shape.
    public static let listMatches = OperationDeclaration<ListGamesArguments, ListMatchesResult>(
        "listMatches",
        routes: [
            .get("/users/{id}/matches") { request throws(WireError) in
                guard let user = UserID(request.parameters[0]) else { throw WireError(.forbidden, "You can list only your own matches.") }
                return ListGamesArguments(userId: user, before: request.query["before"], limit: try request.limit())
            },
            // The seed's form: `user_id` in the query (yours when left out).
            .get("/matches") { request throws(WireError) in
                let user = try request.query["user_id"].map { text throws(WireError) in
                    guard let user = UserID(text) else { throw WireError(.forbidden, "You can list only your own matches.") }
                    return user
                }
                return ListGamesArguments(userId: user, before: request.query["before"], limit: try request.limit())
            },
        ])

    private struct PlayerNameBody: Decodable { let playerName: String }
    private struct GuestBody: Decodable { let name: String }
    private struct VisitBody: Decodable {
        let playerId: UserID
        let darts: [String]?
        let total: Int?
    }
    private struct EditBody: Decodable {
        let visit: Int?
        let darts: [String]?
        let total: Int?
    }
}

extension DartsAction {
    /// The darts moves: one action of the match's rules each.
    public static let moves: [GameMove<DartsAction>] = [
        Operation.startMatch.move(code: { $0.code }) { _ in .start },
        Operation.recordVisit.move(code: { $0.code }) { .recordVisit(playerId: $0.playerId, visit: VisitInput(darts: $0.darts, total: $0.total)) },
        Operation.editLastVisit.move(code: { $0.code }) { .editLastVisit(number: $0.visit, visit: VisitInput(darts: $0.darts, total: $0.total)) },
        Operation.undoLastVisit.move(code: { $0.code }) { .undoLastVisit(number: $0.visit) },
    ]
}

extension WireVocabulary {
    public static let darts = WireVocabulary(
        "darts",
        operations: [Operation.createMatch.erased, Operation.joinMatch.erased, Operation.addGuest.erased, Operation.removePlayer.erased]
            + DartsAction.moves.map(\.operation)
            + [
                Operation.leaveMatch.erased, Operation.observeMatch.erased, Operation.getMatch.erased, Operation.checkout.erased,
                Operation.listMatches.erased, Operation.rematchMatch.erased,
            ],
        errorCodes: [.matchNotFound, .matchFull, .invalidDarts, .invalidThrows])
}
