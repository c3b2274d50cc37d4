/// The name of a subscription's event (`"event"`).
public struct EventName: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    // Each game names its own events in its wire folder (`EventName.room` in `Games/Rummy/`).

    /// The subscription is over (the game was deleted, or the client unsubscribed); no data.
    public static let end = EventName(rawValue: "end")
    /// The operator closed the game (`{"reason": …}`); `null` and `end` follow.
    public static let closed = EventName(rawValue: "closed")

    public var description: String { rawValue }

}

/// A subscription's event frame: `{"sub":3,"event":"room","data":<bytes>}` or `{"sub":3,"event":"end"}`.
///
/// `data` is spliced in as pre-encoded bytes: encode a version's public view once, then call this
/// for each subscriber; only the few bytes of the envelope differ between them.
public enum EventMessage {
    public static func frame(subscription: Int, event: EventName, data: EncodedJSON?) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity((data?.bytes.count ?? 0) + 48)
        WireJSON.append(#"{"sub":"#, to: &out)
        WireJSON.append(String(subscription), to: &out)
        WireJSON.append(#","event":"#, to: &out)
        WireJSON.appendString(event.rawValue, to: &out)
        if let data {
            WireJSON.append(#","data":"#, to: &out)
            out += data.bytes
        }
        out.append(UInt8(ascii: "}"))
        return out
    }

    /// `{"sub":N,"event":"closed","data":{"reason":…}}`.
    public static func closed(subscription: Int, reason: String) -> [UInt8] {
        var data: [UInt8] = []
        WireJSON.append(#"{"reason":"#, to: &data)
        WireJSON.appendString(reason, to: &data)
        data.append(UInt8(ascii: "}"))
        return frame(subscription: subscription, event: .closed, data: EncodedJSON(trustedBytes: data))
    }

    /// `{"event":E,"data":…}`: an event of the connection itself (`tokenExpired`), not of a subscription.
    public static func connection(event: EventName, data: EncodedJSON) -> [UInt8] {
        var out: [UInt8] = []
        WireJSON.append(#"{"event":"#, to: &out)
        WireJSON.appendString(event.rawValue, to: &out)
        WireJSON.append(#","data":"#, to: &out)
        out += data.bytes
        out.append(UInt8(ascii: "}"))
        return out
    }

    /// `{"sub":N,"event":"end"}`.
    public static func end(subscription: Int) -> [UInt8] {
        frame(subscription: subscription, event: .end, data: nil)
    }
}
