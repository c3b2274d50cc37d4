import ParlorRules
import ParlorWire

/// The darts operations over HTTP, for a scorer or a script without a WebSocket. Live matches are under
/// `/darts` (the seed's `/matches` is the finished-match history, uploads included), each route answered
/// by the same handler as its WebSocket operation.
extension DartsOperations {
    var routes: [HTTPRoute] {
        let (createMatch, joinMatch, addGuest, removePlayer, startMatch) = (createMatch, joinMatch, addGuest, removePlayer, startMatch)
        let (recordVisit, editLastVisit, leaveMatch, getMatch) = (recordVisit, editLastVisit, leaveMatch, getMatch)
        let (checkout, listMatches) = (checkout, listMatches)
        return [
            HTTPRoute(.POST, "/darts", status: .created) { request throws(WireError) in
                createMatch.call(try request.body(CreateMatchArguments.self))
            },
            HTTPRoute(.GET, "/darts/{code}", access: .anyone) { request throws(WireError) in
                getMatch.call(MatchCodeArguments(code: request.parameters[0]))
            },
            HTTPRoute(.POST, "/darts/{code}/players") { request throws(WireError) in
                joinMatch.call(JoinMatchArguments(code: request.parameters[0], playerName: try request.body(PlayerNameBody.self).playerName))
            },
            HTTPRoute(.POST, "/darts/{code}/guests") { request throws(WireError) in
                addGuest.call(AddGuestArguments(code: request.parameters[0], name: try request.body(GuestBody.self).name))
            },
            // Your own id leaves the match; another's is the host removing a player.
            HTTPRoute(.DELETE, "/darts/{code}/players/{id}", status: .noContent) { request throws(WireError) in
                let code = request.parameters[0]
                guard let player = UserID(request.parameters[1]) else {
                    throw WireError(DartsError.playerNotFound(playerId: request.parameters[1]))
                }
                let leave = leaveMatch.call(MatchCodeArguments(code: code))
                let remove = removePlayer.call(RemovePlayerArguments(code: code, playerId: player))
                return { context throws(WireError) in
                    try await (context.user == player ? leave : remove)(context)
                }
            },
            HTTPRoute(.POST, "/darts/{code}/start") { request throws(WireError) in
                startMatch.call(MatchCodeArguments(code: request.parameters[0]))
            },
            HTTPRoute(.POST, "/darts/{code}/visits") { request throws(WireError) in
                let body = try request.body(VisitBody.self)
                return recordVisit.call(RecordVisitArguments(
                    code: request.parameters[0], playerId: body.playerId, darts: body.darts, total: body.total))
            },
            HTTPRoute(.PUT, "/darts/{code}/visits/last") { request throws(WireError) in
                let body = try request.body(EditBody.self)
                return editLastVisit.call(EditLastVisitArguments(
                    code: request.parameters[0], visit: body.visit, darts: body.darts, total: body.total))
            },
            HTTPRoute(.GET, "/checkout", access: .anyone) { request throws(WireError) in
                guard let score = request.query["score"].flatMap({ Int($0) }), let darts = request.query["darts"].flatMap({ Int($0) }) else {
                    throw WireError(.invalidInput, "Give score and darts as numbers: /checkout?score=170&darts=3&outRule=double.")
                }
                return checkout.call(CheckoutArguments(score: score, darts: darts, outRule: request.query["outRule"]))
            },
            HTTPRoute(.GET, "/users/{id}/matches") { request throws(WireError) in
                guard let user = UserID(request.parameters[0]) else {
                    throw WireError(.forbidden, "You can list only your own matches.")
                }
                return listMatches.call(ListGamesArguments(
                    userId: user, before: request.query["before"], limit: request.query["limit"].flatMap { Int($0) }))
            },
        ]
    }

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
