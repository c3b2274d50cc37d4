/// Which node of a cluster serves a live game: the one the front routes its players to, whose timers
/// fire it, and whose copy is the one that is changed (a node on its own serves every game it holds).
///
/// Other nodes may hold a copy — for a client that reached them anyway (one that cannot be routed, or
/// that arrived before it was told where to go) — and serve it as before: every save is version-checked,
/// so a copy elsewhere costs speed, never a change.
enum GameHome: Sendable, Equatable {
    /// This node.
    case here
    /// Another node, by its name.
    case elsewhere(String)
    /// No node (its node drained, or stopped beating): the next node that needs the game takes it.
    case unclaimed

    /// The serving node's name, when it is another.
    var otherNode: String? {
        if case .elsewhere(let node) = self { node } else { nil }
    }
}
