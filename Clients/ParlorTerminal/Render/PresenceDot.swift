import ParlorRules
import ParlorWire

/// The dot beside a player's name on every game's screen: `●` connected, `○` away, as the game's stream
/// last said (`presence` events); blank while it has not said (before the first one, or for a player
/// who sat down since). The word game draws it as its colour swatch (`PlayerLook.swatch`), so a lobby
/// keeps one dot per player.
enum PresenceDot {
    static let online = PlayerLook.swatch
    static let away = "○"

    /// `●`, `○`, or nil when the stream has not said.
    static func symbol(_ user: UserID, in presence: PresenceView?) -> String? {
        presence?.isOnline(user).map { $0 ? online : away }
    }

    /// The dot, one column wide, green when connected and dim when away; a space when unknown.
    static func span(_ user: UserID, in presence: PresenceView?) -> Span {
        switch presence?.isOnline(user) {
        case true?: Span(online, .good)
        case false?: Span(away, .dim)
        case nil: Span(" ")
        }
    }

    /// What goes before a name: the dot and a space once the stream has said who is connected (a blank
    /// dot for a player it has not named), nothing before that — so every name of one screen lines up.
    static func prefix(_ user: UserID, in presence: PresenceView?) -> [Span] {
        presence == nil ? [] : [span(user, in: presence), Span(" ")]
    }
}
