import NIOCore
import NIOHTTP1
import WebSocketCore

/// `GET /catalog`: the whole catalog with a strong `ETag` (`"v3"`), or `304 Not Modified` when the
/// client's `If-None-Match` already names the current version. `Cache-Control: no-cache` lets clients keep
/// a copy but ask each time whether it is still current (a question that costs a 304 and no body).
enum CatalogHTTP {
    static func response(_ snapshot: CatalogService.Snapshot, ifNoneMatch: [String]) -> HTTPResponse {
        var headers: HTTPHeaders = ["ETag": snapshot.etag, "Cache-Control": "no-cache"]
        if matches(snapshot.etag, ifNoneMatch) {
            return HTTPResponse(status: .notModified, headers: headers)
        }
        headers.add(name: "Content-Type", value: "application/json")
        return HTTPResponse(status: .ok, headers: headers, body: ByteBuffer(bytes: snapshot.encoded.bytes))
    }

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
