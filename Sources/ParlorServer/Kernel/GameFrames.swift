import ParlorRules
import ParlorWire
import WebSocketCore

/// The event frames of one version of a game: the public frame, encoded once and sent unchanged to
/// every subscriber, and one private frame per member for games that keep secrets.
struct GameFrames: Sendable {
    let version: Int
    let publicFrame: PreparedMessage
    let privateFrames: [UserID: PreparedMessage]

    init<Game: GameDefinition>(
        _ game: Game.Rules, publicView: EncodedJSON, topic: Int, definition: Game
    ) throws(WireError) {
        version = game.version
        publicFrame = PreparedMessage(json: EventMessage.frame(subscription: topic, event: definition.publicEvent, data: publicView))
        guard let privateEvent = definition.privateEvent else {
            privateFrames = [:]
            return
        }
        // Every member gets a private frame with every version, so a subscriber whose stream skipped
        // versions (conflation) still ends on its own newest view.
        var frames: [UserID: PreparedMessage] = [:]
        let members = game.members
        frames.reserveCapacity(members.count)
        for member in members {
            let view = try definition.encodePrivateView(game.privateView(for: member))
            frames[member] = PreparedMessage(json: EventMessage.frame(subscription: topic, event: privateEvent, data: view))
        }
        privateFrames = frames
    }

    /// What subscribers get when the game is deleted: the public event with null data, then `end`
    /// (the seed's stream of `GameRoom?` ends with nil).
    static func deleted(topic: Int, event: EventName) -> [PreparedMessage] {
        [
            PreparedMessage(json: EventMessage.frame(subscription: topic, event: event, data: .null)),
            PreparedMessage(json: EventMessage.end(subscription: topic)),
        ]
    }
}

extension Feed {
    func publish(_ frames: GameFrames) {
        publish(version: frames.version, frame: frames.publicFrame, privateFrames: frames.privateFrames)
    }
}
