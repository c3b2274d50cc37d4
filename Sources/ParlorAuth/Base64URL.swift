import Foundation

/// base64url without padding (RFC 7515 §2), as JWS and JWK write bytes.
package enum Base64URL {
    /// The bytes `text` encodes; nil when it holds anything but the base64url alphabet (padding
    /// included), or a length no encoding has.
    package static func decode<Text: StringProtocol>(_ text: Text) -> [UInt8]? {
        var base64 = ""
        base64.reserveCapacity(text.utf8.count + 3)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                base64.unicodeScalars.append(UnicodeScalar(byte))
            case UInt8(ascii: "-"): base64 += "+"
            case UInt8(ascii: "_"): base64 += "/"
            default: return nil
            }
        }
        guard base64.utf8.count % 4 != 1 else { return nil }
        while base64.utf8.count % 4 != 0 { base64 += "=" }
        return Data(base64Encoded: base64).map { Array($0) }
    }

    /// The bytes `text` encodes, only when `text` is their one canonical spelling and at most
    /// `maxLength` characters long. The last character of an unpadded encoding carries bits no byte
    /// uses (two of them for a 32-byte HMAC), and `decode` ignores them, so without this check every
    /// signature would have other spellings that verify: an altered token must never be accepted,
    /// however harmless the alteration. (Parlor's own tokens and invitations; a JWS is read by `decode`.)
    package static func decodeCanonical<Text: StringProtocol>(_ text: Text, maxLength: Int) -> [UInt8]? {
        guard text.utf8.count <= maxLength, let bytes = decode(text), encode(bytes) == String(text) else { return nil }
        return bytes
    }

    /// `bytes` in base64url, unpadded.
    package static func encode(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
