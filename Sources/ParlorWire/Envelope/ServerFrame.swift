/// What a client reads from the server, decoded in two steps: `ServerFrame.Header` tells a reply
/// (`id`) from an event (`sub`); then `ServerFrame.Reply<T>` or `ServerFrame.Event<T>` decodes the
/// payload as the type the request or subscription expects.
public enum ServerFrame {
    public struct Header: Sendable, Equatable, Decodable {
        /// Present on replies (possibly `.null`).
        public let id: RequestID?
        /// Present on events.
        public let sub: Int?
        public let event: EventName?
        public let error: WireError?

        public var isEvent: Bool { sub != nil }

        private enum CodingKeys: String, CodingKey { case id, sub, event, error }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = container.contains(.id) ? try container.decode(RequestID.self, forKey: .id) : nil
            sub = try container.decodeIfPresent(Int.self, forKey: .sub)
            event = try container.decodeIfPresent(EventName.self, forKey: .event)
            error = try container.decodeIfPresent(WireError.self, forKey: .error)
        }
    }

    public struct Reply<Result: Decodable & Sendable>: Sendable, Decodable {
        public let id: RequestID
        public let result: Result?
        public let error: WireError?
    }

    public struct Event<Payload: Decodable & Sendable>: Sendable, Decodable {
        public let sub: Int
        public let event: EventName
        public let data: Payload?
    }
}
