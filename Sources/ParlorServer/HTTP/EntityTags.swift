import Foundation

/// `If-None-Match` against a representation's entity tag, for the routes that answer `304 Not Modified`.
enum EntityTags {
    /// RFC 9110 §13.1.2: `*` matches any current representation; otherwise any listed tag that equals
    /// ours under weak comparison (a `W/` prefix is ignored).
    static func matches(_ etag: String, _ headerValues: [String]) -> Bool {
        for value in headerValues {
            for candidate in value.split(separator: ",") {
                var tag = candidate.trimmingCharacters(in: .whitespaces)
                if tag == "*" { return true }
                if tag.hasPrefix("W/") { tag.removeFirst(2) }
                if tag == etag { return true }
            }
        }
        return false
    }
}
