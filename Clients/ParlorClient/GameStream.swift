import ParlorWire

/// How the client follows one kind of game's stream, declared once in the game's folder of this library
/// (`GameStream.ticTacToe`): the request that subscribes to a game by its key (a code, a lobby's id), the
/// events that carry its views, what its callers receive for each, and the error codes that end it.
/// ``ParlorClient/follow(_:key:)`` follows any game's stream through it; nothing else in the library
/// knows the game.
///
/// `Update` is what the caller's `AsyncStream` yields: for most games the view, nil when the game is
/// deleted (`GameStream<TicTacToeView?>`); a game with private views delivers its own enum.
public struct GameStream<Update: Sendable>: Sendable {
    /// Names the stream in logs and keys the client's subscriptions ("room", "watched lobby").
    public let kind: String
    let subscribe: @Sendable (String) -> Operation
    /// Its events, the public view's first.
    let channels: [Channel]
    /// Codes in the answer to subscribing again that say the game no longer exists.
    let gone: Set<ErrorCode>
    /// Codes that say the game exists but no longer lets us watch it (a lobby we were removed from).
    let revoked: Set<ErrorCode>
    /// What the streams get when the game is deleted (the public event's `null`), before they end.
    let deleted: Update
    /// What the streams get when watching is revoked, before they end; nil: they just end.
    let removed: Update?
    /// Updates buffered per stream for a reader that is behind, unless the configuration says otherwise
    /// (``ParlorClientConfiguration/eventBuffers``): views conflate, so a slow reader sees the newest.
    let defaultBuffer: Int
    /// Whether the key is a code, which people type in any case and with stray spaces (the server reads
    /// it the same way, and so must the key the subscription is kept under); false for ids.
    let keyIsCode: Bool

    /// One event of the stream: how its data is read into an update and its version. Each channel keeps
    /// its own newest version; an event not newer than it is dropped.
    struct Channel: Sendable {
        let event: EventName
        /// The event's data, nil when it is `null`.
        let read: @Sendable ([UInt8]) throws -> (version: Int, update: Update)?
        /// A `null` here means the game was deleted (the public view's event); elsewhere it is ignored.
        let nullIsDeletion: Bool
    }

    /// A game's stream with a public view and, for games that keep secrets, a private one per member.
    public init<Arguments, Subscription, View: Decodable & Sendable & VersionedView>(
        _ kind: String,
        observe: OperationDeclaration<Arguments, Subscription>, arguments: @escaping @Sendable (String) -> Arguments,
        event: EventName, view: @escaping @Sendable (View) -> Update, deleted: Update,
        privateEvent: PrivateEvent? = nil, removed: Update? = nil,
        gone: [ErrorCode], revoked: [ErrorCode] = [], buffer: Int = 1, keyIsCode: Bool = true
    ) {
        self.kind = kind
        subscribe = { observe(arguments($0)) }
        let publicChannel = Channel(event: event, read: { frame in
            try WireJSON.decode(ServerFrame.Event<View>.self, from: frame).data.map { ($0.version, view($0)) }
        }, nullIsDeletion: true)
        channels = [publicChannel] + (privateEvent.map { [$0.channel] } ?? [])
        self.gone = Set(gone)
        self.revoked = Set(revoked)
        self.deleted = deleted
        self.removed = removed
        defaultBuffer = buffer
        self.keyIsCode = keyIsCode
    }

    /// A member's private view, delivered beside the public one (`lobbyPrivate`).
    public struct PrivateEvent: Sendable {
        let event: EventName
        let channel: Channel

        public init<View: Decodable & Sendable & VersionedView>(
            _ event: EventName, _: View.Type, update: @escaping @Sendable (View) -> Update
        ) {
            self.event = event
            channel = Channel(event: event, read: { frame in
                try WireJSON.decode(ServerFrame.Event<View>.self, from: frame).data.map { ($0.version, update($0)) }
            }, nullIsDeletion: false)
        }
    }

    /// The subscription of the game `key` names.
    func target(_ key: String) -> SubscriptionTarget {
        let key = keyIsCode ? ParlorClient.normalizedCode(key) : key
        return SubscriptionTarget(kind: kind, key: key, observeOperation: subscribe(key), gone: gone, revoked: revoked)
    }
}

extension GameStream {
    /// The stream of a game whose one view everyone sees: each newer version, then nil when the game is
    /// deleted.
    public init<Arguments, Subscription, View: Decodable & Sendable & VersionedView>(
        _ kind: String,
        observe: OperationDeclaration<Arguments, Subscription>, arguments: @escaping @Sendable (String) -> Arguments,
        event: EventName, gone: [ErrorCode]
    ) where Update == View? {
        self.init(kind, observe: observe, arguments: arguments, event: event, view: { $0 }, deleted: nil, gone: gone)
    }
}

/// A view a stream delivers whole, each with its version.
public protocol VersionedView {
    var version: Int { get }
}
