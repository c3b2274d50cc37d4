/// What we are willing to do with permessage-deflate (RFC 7692). Every field has a default suited to a
/// server with many small, similar messages and many connections.
public struct PerMessageDeflateConfiguration: Sendable, Equatable {
    /// Reset our compressor after every message. Costs some ratio, but lets one compression of a
    /// broadcast be shared by every connection and keeps no 256 KiB deflate state per connection.
    /// A server may impose this even when the client did not ask (RFC 7692 §7.1.1.1).
    public var noContextTakeoverForOurMessages: Bool = true
    /// Ask the peer to reset its compressor after every message, so we keep no 32 KiB inflate window
    /// per connection between messages.
    public var requestPeerNoContextTakeover: Bool = false
    /// The largest window we compress with (9...15).
    public var maxWindowBits: Int = 15
    /// Messages smaller than this go uncompressed (allowed per message, RFC 7692 §6).
    public var minimumMessageSize: Int = 128
    /// zlib compression level 1...9.
    public var compressionLevel: Int = 6

    public init() {}
}

/// The parameters both ends agreed on, from our side's point of view.
public struct NegotiatedDeflate: Sendable, Equatable {
    /// We reset our compressor after each message.
    public var ourNoContextTakeover: Bool
    /// The peer resets its compressor after each message, so we may reset our inflater too.
    public var peerNoContextTakeover: Bool
    /// The window we compress with.
    public var ourWindowBits: Int
    /// The window the peer compresses with (what our inflater must hold).
    public var peerWindowBits: Int
    public var minimumMessageSize: Int
    public var compressionLevel: Int

    public init(
        ourNoContextTakeover: Bool, peerNoContextTakeover: Bool, ourWindowBits: Int, peerWindowBits: Int,
        minimumMessageSize: Int = 128, compressionLevel: Int = 6
    ) {
        self.ourNoContextTakeover = ourNoContextTakeover
        self.peerNoContextTakeover = peerNoContextTakeover
        self.ourWindowBits = ourWindowBits
        self.peerWindowBits = peerWindowBits
        self.minimumMessageSize = minimumMessageSize
        self.compressionLevel = compressionLevel
    }
}

/// Extension negotiation for permessage-deflate.
public enum PerMessageDeflateNegotiation {
    public static let extensionName = "permessage-deflate"

    private enum Parameter {
        static let serverNoContextTakeover = "server_no_context_takeover"
        static let clientNoContextTakeover = "client_no_context_takeover"
        static let serverMaxWindowBits = "server_max_window_bits"
        static let clientMaxWindowBits = "client_max_window_bits"
    }

    // MARK: Server side

    /// Picks the first offer in `Sec-WebSocket-Extensions` we can accept (RFC 7692 §5) and returns the
    /// response header value with the parameters in force. Offers we cannot honour are declined, not
    /// failed: the connection then simply goes uncompressed. Returns nil when nothing was acceptable.
    public static func negotiateAsServer(
        offers headerValues: [String], configuration: PerMessageDeflateConfiguration
    ) -> (response: String, negotiated: NegotiatedDeflate)? {
        guard let extensions = HTTPHeaderTokens.extensions(headerValues) else { return nil }
        for offer in extensions where offer.name == extensionName {
            if let accepted = accept(offer, configuration: configuration) { return accepted }
        }
        return nil
    }

    private static func accept(
        _ offer: HTTPHeaderTokens.Extension, configuration: PerMessageDeflateConfiguration
    ) -> (String, NegotiatedDeflate)? {
        var serverNoContextTakeover = false
        var clientNoContextTakeover = false
        var serverMaxWindowBits: Int?
        var clientMaxWindowBits: Int??  // .some(nil): offered without a value
        var seen = Set<String>()
        for (name, value) in offer.parameters {
            // A parameter given twice makes the offer invalid (§7).
            guard seen.insert(name).inserted else { return nil }
            switch name {
            case Parameter.serverNoContextTakeover:
                guard value == nil else { return nil }
                serverNoContextTakeover = true
            case Parameter.clientNoContextTakeover:
                guard value == nil else { return nil }
                clientNoContextTakeover = true
            case Parameter.serverMaxWindowBits:
                guard let value, let bits = windowBits(value) else { return nil }
                serverMaxWindowBits = bits
            case Parameter.clientMaxWindowBits:
                if let value {
                    guard let bits = windowBits(value) else { return nil }
                    clientMaxWindowBits = .some(bits)
                } else {
                    clientMaxWindowBits = .some(nil)
                }
            default:
                return nil  // an unknown parameter: decline this offer
            }
        }

        let ourLimit = min(15, max(9, configuration.maxWindowBits))
        var ourBits = ourLimit
        if let requested = serverMaxWindowBits {
            // zlib cannot compress with an 8-bit window, so an offer demanding 8 is declined.
            guard requested >= 9 else { return nil }
            ourBits = min(ourLimit, requested)
        }
        let ourNoTakeover = serverNoContextTakeover || configuration.noContextTakeoverForOurMessages
        let peerNoTakeover = clientNoContextTakeover || configuration.requestPeerNoContextTakeover

        var response = [extensionName]
        if ourNoTakeover { response.append(Parameter.serverNoContextTakeover) }
        if peerNoTakeover { response.append(Parameter.clientNoContextTakeover) }
        if serverMaxWindowBits != nil || ourBits < 15 {
            response.append("\(Parameter.serverMaxWindowBits)=\(ourBits)")
        }
        var peerBits = 15
        if case .some(let offered) = clientMaxWindowBits, let offered {
            // The client will use at most what it offered; we can inflate any window, so echo its choice.
            peerBits = offered
            response.append("\(Parameter.clientMaxWindowBits)=\(offered)")
        }
        let negotiated = NegotiatedDeflate(
            ourNoContextTakeover: ourNoTakeover, peerNoContextTakeover: peerNoTakeover,
            ourWindowBits: ourBits, peerWindowBits: peerBits,
            minimumMessageSize: configuration.minimumMessageSize,
            compressionLevel: min(9, max(1, configuration.compressionLevel)))
        return (response.joined(separator: "; "), negotiated)
    }

    // MARK: Client side

    /// The offer our client sends.
    public static func clientOffer(_ configuration: PerMessageDeflateConfiguration) -> String {
        var offer = [extensionName, Parameter.clientMaxWindowBits]
        if configuration.noContextTakeoverForOurMessages { offer.append(Parameter.clientNoContextTakeover) }
        if configuration.requestPeerNoContextTakeover { offer.append(Parameter.serverNoContextTakeover) }
        return offer.joined(separator: "; ")
    }

    /// Validates the server's answer to our offer. Returns nil when the server accepted no extension, and
    /// throws when the answer is something a client must fail the connection over (RFC 7692 §5.1).
    public static func acceptAsClient(
        response headerValues: [String], configuration: PerMessageDeflateConfiguration
    ) throws(WebSocketHandshakeError) -> NegotiatedDeflate? {
        guard let extensions = HTTPHeaderTokens.extensions(headerValues) else {
            throw .invalidResponse("malformed Sec-WebSocket-Extensions")
        }
        guard !extensions.isEmpty else { return nil }
        guard extensions.count == 1, let chosen = extensions.first, chosen.name == extensionName else {
            throw .invalidResponse("server accepted an extension we did not offer")
        }
        var ourNoTakeover = configuration.noContextTakeoverForOurMessages
        var peerNoTakeover = false
        var peerBits = 15
        var ourBits = min(15, max(9, configuration.maxWindowBits))
        var seen = Set<String>()
        for (name, value) in chosen.parameters {
            guard seen.insert(name).inserted else { throw .invalidResponse("\(name) given twice") }
            switch name {
            case Parameter.serverNoContextTakeover:
                guard value == nil else { throw .invalidResponse("\(name) takes no value") }
                peerNoTakeover = true
            case Parameter.clientNoContextTakeover:
                guard value == nil else { throw .invalidResponse("\(name) takes no value") }
                ourNoTakeover = true
            case Parameter.serverMaxWindowBits:
                guard let value, let bits = windowBits(value) else { throw .invalidResponse("bad \(name)") }
                peerBits = bits
            case Parameter.clientMaxWindowBits:
                guard let value, let bits = windowBits(value) else { throw .invalidResponse("bad \(name)") }
                // We cannot compress with an 8-bit window (zlib); failing is the only honest answer.
                guard bits >= 9 else { throw .invalidResponse("client_max_window_bits=8 is not supported") }
                ourBits = min(ourBits, bits)
            default:
                throw .invalidResponse("unknown permessage-deflate parameter \(name)")
            }
        }
        return NegotiatedDeflate(
            ourNoContextTakeover: ourNoTakeover, peerNoContextTakeover: peerNoTakeover,
            ourWindowBits: ourBits, peerWindowBits: peerBits,
            minimumMessageSize: configuration.minimumMessageSize,
            compressionLevel: min(9, max(1, configuration.compressionLevel)))
    }

    /// `8`...`15`, digits only (so not `+9`, which `Int` would read), no leading zeros.
    private static func windowBits(_ value: String) -> Int? {
        guard let first = value.first, first != "0", value.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
            let bits = Int(value), (8...15).contains(bits)
        else { return nil }
        return bits
    }
}
