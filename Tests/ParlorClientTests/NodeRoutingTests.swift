import ParlorWire
import Testing
@testable import ParlorClient

/// Where a client of a cluster goes: to the node serving every game it follows, asked for by name;
/// never again to a node it asked for and did not reach; nowhere when its games disagree or the server
/// is on its own.
struct NodeRoutingTests {
    @Test func aClientMovesToTheNodeServingItsGame() {
        var routing = NodeRouting()
        #expect(routing.connecting() == nil)
        routing.signedIn(on: "node1")
        #expect(routing.heard("node2", on: 3) == "node2")
        #expect(routing.preferred == "node2")
        // The next connection asks for it and gets it: nothing more to do.
        #expect(routing.connecting() == "node2")
        routing.signedIn(on: "node2")
        #expect(routing.heard("node2", on: 7) == nil)
        #expect(routing.preferred == "node2")
    }

    @Test func aNodeAskedForAndNotReachedIsNotAskedForAgainOnThatConnection() {
        var routing = NodeRouting()
        routing.signedIn(on: "node1")
        _ = routing.heard("node2", on: 1)
        #expect(routing.connecting() == "node2")
        // node2 is down: the front sent this connection to node3, which still names node2.
        routing.signedIn(on: "node3")
        #expect(routing.heard("node2", on: 1) == nil)
        // Until the game moves to a node that is up.
        #expect(routing.heard("node3", on: 1) == nil, "served where it is")
        #expect(routing.preferred == "node3")
    }

    @Test func gamesOnDifferentNodesKeepTheClientWhereItIs() {
        var routing = NodeRouting()
        routing.signedIn(on: "node1")
        #expect(routing.heard("node1", on: 1) == nil)
        #expect(routing.heard("node2", on: 2) == nil, "one game here, one there: stay")
        routing.ended(1)
        #expect(routing.heard("node2", on: 2) == "node2", "the game left is served elsewhere: go")
    }

    @Test func aServerOnItsOwnMovesNobody() {
        var routing = NodeRouting()
        routing.signedIn(on: nil)
        #expect(routing.heard("node2", on: 1) == nil)
    }

    @Test func aRestartingNodeIsNotAskedForAgain() {
        var routing = NodeRouting()
        routing.signedIn(on: "node1")
        _ = routing.heard("node1", on: 1)
        routing.restarting()
        #expect(routing.connecting() == nil)
    }

    @Test func theURLAsksTheFrontForTheNode() {
        #expect(NodeRoute.url("ws://front:8080/ws", asking: "node2") == "ws://front:8080/ws?node=node2")
        #expect(NodeRoute.url("ws://front:8080/ws?token=t", asking: "node-2.eu_1") == "ws://front:8080/ws?token=t&node=node-2.eu_1")
        #expect(NodeRoute.url("ws://front:8080/ws", asking: "a b&c") == "ws://front:8080/ws?node=a%20b%26c")
        #expect(NodeRoute.url("ws://front:8080/ws", asking: nil) == "ws://front:8080/ws")
    }
}
