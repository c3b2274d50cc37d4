import ParlorRules
import ParlorWire

/// The darts operations over HTTP, for a scorer or a script without a WebSocket: the routes their
/// declarations give (live matches under `/darts`, the seed's `/matches` history), and the one that is
/// two operations. Uploads are in `DartsUploads`.
extension DartsOperations {
    var routes: [HTTPRoute] {
        let (leaveMatch, removePlayer) = (leaveMatch, removePlayer)
        return createMatch.routes + joinMatch.routes + addGuest.routes + getMatch.routes + checkout.routes + listMatches.routes + rematchMatch.routes + [
            // Your own id leaves the match; another's is the host removing a player (`removePlayer`).
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
        ]
    }
}
