/// How a client asks a cluster's front for the node that serves its game: `/ws?node=NAME`, the name a
/// `node` event gave (`ServingNode`). The front sends the connection there while that node is up, and
/// anywhere otherwise; a server on its own ignores it.
public enum NodeRoute {
    /// The query parameter the front routes by.
    public static let parameter = "node"

    /// `url` asking for `node` (unchanged for nil). Node names are letters, digits, `-`, `_` and `.`;
    /// anything else is percent-encoded.
    public static func url(_ url: String, asking node: String?) -> String {
        guard let node else { return url }
        var encoded = ""
        for byte in node.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "~"):
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF".unicodeScalars)
                encoded.unicodeScalars.append("%")
                encoded.unicodeScalars.append(hex[Int(byte >> 4)])
                encoded.unicodeScalars.append(hex[Int(byte & 0x0F)])
            }
        }
        return url + (url.contains("?") ? "&" : "?") + parameter + "=" + encoded
    }
}
