/// Which node of a cluster this client should be on: the one that serves every game it follows, as the
/// games' `node` events say. The next connection asks the front for it (`/ws?node=NAME`); while the
/// current one is elsewhere, the client moves. A plain value, driven under the client's lock.
///
/// A connection that asked for a node and reached another (that node is down, or draining) does not
/// move to it again: it stays where it is, served there, until a game names another node. A client
/// following games served by different nodes stays where it is too. A server on its own names no node,
/// and nothing moves.
struct NodeRouting: Sendable, Equatable {
    /// The node the next connection asks for (nil: any).
    private(set) var preferred: String?
    /// The node the current connection asked for, and the one its `hello` says it reached.
    private(set) var asked: String?
    private(set) var reached: String?
    /// The node each followed game is served by, by the subscription's id on the current connection.
    private var servedBy: [Int: String] = [:]

    /// A new connection is being made: returns the node it asks for.
    mutating func connecting() -> String? {
        asked = preferred
        reached = nil
        servedBy = [:]
        return preferred
    }

    /// The connection is signed in, on `node` (nil: a server on its own).
    mutating func signedIn(on node: String?) {
        reached = node
    }

    /// Subscription `sub` follows a game served by `node`. Returns the node to move to now, if any.
    mutating func heard(_ node: String, on sub: Int) -> String? {
        servedBy[sub] = node
        let nodes = Set(servedBy.values)
        guard nodes.count == 1, let target = nodes.first, let reached else { return nil }
        // A node this connection asked for and did not reach is out of the front's reach for now.
        guard target != reached, target != asked else {
            if target == reached { preferred = target }
            return nil
        }
        preferred = target
        return target
    }

    /// Subscription `sub` ended: its game no longer says where to be.
    mutating func ended(_ sub: Int) {
        servedBy.removeValue(forKey: sub)
    }

    /// The node said it is restarting (1012): the next connection asks for none.
    mutating func restarting() {
        preferred = nil
    }
}
