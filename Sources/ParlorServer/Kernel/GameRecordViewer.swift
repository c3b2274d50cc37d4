import ParlorRules
import ParlorWire

/// What one viewer of a record may see at each step: exactly what the live game sent them at that
/// version, decided here for every kind of game with the game's own live view functions, never per game.
///
/// - Everyone sees the public view (`encodePublicView` at the step's time): the frame every spectator
///   was sent.
/// - A member of the game at that step also sees their own private view (`privateView(for:)`, the
///   frame the game sends each member with every version: a word match's own words). A secret
///   therefore appears at the step where the game put it into a view, never earlier; a player who left
///   sees the public view alone from the step they left.
/// - An action goes with its step only when the viewer saw it: every action of a game whose moves are
///   all public once it is finished (`GameDefinition.recordsPublicActions`), and otherwise the viewer's
///   own actions alone. Another player's move in a game with secrets (a word, a quiz guess) is not
///   shown even after the round's reveal: what the reveal showed is in that step's views, and the
///   action may hold more than the reveal did (a rejected word, a changed guess).
struct GameRecordViewer<Game: GameDefinition> {
    let game: Game
    let viewer: UserID

    /// One step as the viewer was sent it.
    struct Seen {
        var view: EncodedJSON
        /// The viewer's own part, for a member of a game with private views.
        var privateView: EncodedJSON?

        var byteCount: Int { view.bytes.count + (privateView?.bytes.count ?? 0) }

        /// `privateView`, when there is one.
        func writePrivate(into json: inout JSONWriter) {
            guard let privateView else { return }
            json.key("privateView")
            json.raw(privateView)
        }
    }

    /// `state`, as published at `now`, as the viewer saw it.
    func seen(_ state: Game.Rules, at now: Instant) throws(WireError) -> Seen {
        var seen = Seen(view: try game.encodePublicView(state, at: now))
        if game.privateEvent != nil, state.members.contains(viewer) {
            seen.privateView = try game.encodePrivateView(state.privateView(for: viewer))
        }
        return seen
    }

    /// Whether the viewer may see the action of `step`.
    func seesAction(of step: GameRecordStep) -> Bool {
        game.recordsPublicActions || step.actor == viewer.rawValue
    }
}
