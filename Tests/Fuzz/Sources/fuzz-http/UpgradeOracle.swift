import Foundation
import FuzzSupport
import NIOHTTP1
@testable import WebSocketCore

/// RFC 6455 §4.2.1 and RFC 7692 §5 read apart from `WebSocketHandshake`: what a request the server
/// agreed to upgrade must carry, and what its extension answer must mean to a client.
enum UpgradeOracle {
    /// Called for every request the server offers the application: it passed the server's checks, so
    /// it must pass these.
    static func checkAccepted(_ request: WebSocketUpgradeRequest, compression: PerMessageDeflateConfiguration?) {
        let headers = request.headers
        let hosts = headers["Host"]
        require(hosts.count == 1 && !hosts[0].isEmpty, "upgraded with Host \(hosts)")
        require(listHas(headers["Upgrade"], "websocket"), "upgraded with Upgrade \(headers["Upgrade"])")
        require(listHas(headers["Connection"], "upgrade"), "upgraded with Connection \(headers["Connection"])")
        let versions = headers["Sec-WebSocket-Version"].flatMap(items)
        require(versions == ["13"], "upgraded with Sec-WebSocket-Version \(versions)")
        let keys = headers["Sec-WebSocket-Key"]
        require(keys.count == 1, "upgraded with \(keys.count) keys")
        let key = trimmed(keys[0])
        require(key.utf8.count == 24 && Data(base64Encoded: key)?.count == 16, "upgraded with key \(key)")
        for item in headers["Sec-WebSocket-Protocol"].flatMap(items) {
            require(isToken(item), "upgraded with subprotocol \(item)")
        }
        require(request.requestedSubprotocols == headers["Sec-WebSocket-Protocol"].flatMap(items), "subprotocols misread")
        if let compression {
            checkNegotiation(offers: headers["Sec-WebSocket-Extensions"], compression)
        }
    }

    /// The server's answer to any offer must be one our own client accepts, meaning the same parameters
    /// seen from the other end. (Only an echoed `client_max_window_bits=8` is refused: our client never
    /// offers it, and zlib cannot compress with an 8-bit window.)
    static func checkNegotiation(offers: [String], _ configuration: PerMessageDeflateConfiguration) {
        guard let (response, server) = PerMessageDeflateNegotiation.negotiateAsServer(offers: offers, configuration: configuration)
        else { return }
        var clientConfiguration = PerMessageDeflateConfiguration()
        clientConfiguration.noContextTakeoverForOurMessages = false
        let client: NegotiatedDeflate?
        do {
            client = try PerMessageDeflateNegotiation.acceptAsClient(response: [response], configuration: clientConfiguration)
        } catch {
            require(response.contains("client_max_window_bits=8"), "our client refuses the server's answer \(response): \(error)")
            return
        }
        guard let client else { fatalError("our client finds no extension in \(response)") }
        require(client.peerWindowBits == server.ourWindowBits, "window bits differ: \(response)")
        require(client.ourWindowBits == min(15, server.peerWindowBits), "peer window bits differ: \(response)")
        require(client.peerNoContextTakeover == server.ourNoContextTakeover, "server takeover differs: \(response)")
        require(client.ourNoContextTakeover == server.peerNoContextTakeover, "client takeover differs: \(response)")
        require((9...15).contains(server.ourWindowBits), "the server would compress with \(server.ourWindowBits) bits")
    }

    /// `Sec-WebSocket-Accept` for `key` computed here: base64(SHA-1(key + GUID)).
    static func accept(forKey key: String) -> String {
        WebSocketHandshake.acceptValue(forKey: trimmed(key))
    }

    static func items(_ value: String) -> [String] {
        value.split(separator: ",").map { trimmed(String($0)) }.filter { !$0.isEmpty }
    }

    static func listHas(_ values: [String], _ token: String) -> Bool {
        values.flatMap(items).contains { $0.lowercased() == token }
    }

    static func trimmed(_ s: String) -> String {
        String(decoding: trimmed(Array(s.utf8)[...]), as: UTF8.self)
    }

    /// Without leading and trailing spaces and tabs (HTTP's optional whitespace).
    static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var bytes = bytes
        while let first = bytes.first, first == 0x20 || first == 0x09 { bytes = bytes.dropFirst() }
        while let last = bytes.last, last == 0x20 || last == 0x09 { bytes = bytes.dropLast() }
        return bytes
    }

    static func isToken(_ s: String) -> Bool {
        isToken(Array(s.utf8)[...])
    }

    /// RFC 9110 `token`: one or more of the visible ASCII characters that are not delimiters.
    static func isToken(_ bytes: ArraySlice<UInt8>) -> Bool {
        !bytes.isEmpty && bytes.allSatisfy { tokenBytes[Int($0)] }
    }

    private static let tokenBytes: [Bool] = (0...255).map { (c: Int) in
        c > 0x20 && c < 0x7F && !Array(#"()<>@,;:\"/[]?={}"#.utf8).contains(UInt8(c))
    }
}
