import NIOCore
import NIOHTTP1
import ParlorWire
import WebSocketCore

/// `GET /catalog`: the whole catalog with a strong `ETag` (`"v3"`), or `304 Not Modified` when the
/// client's `If-None-Match` already names the current version. `Cache-Control: no-cache` lets clients keep
/// a copy but ask each time whether it is still current (a question that costs a 304 and no body).
enum CatalogHTTP {
    /// The route, served by `catalog` to anyone (other methods on `/catalog` are answered 405).
    static func route(_ catalog: CatalogService) -> HTTPRoute {
        HTTPRoute(.GET, "/catalog", access: .anyone) { [catalog] request, _ throws(WireError) in
            response(catalog.current, ifNoneMatch: request.request.headers["If-None-Match"])
        }
    }

    static func response(_ snapshot: CatalogService.Snapshot, ifNoneMatch: [String]) -> HTTPResponse {
        var headers: HTTPHeaders = ["ETag": snapshot.etag, "Cache-Control": "no-cache"]
        if EntityTags.matches(snapshot.etag, ifNoneMatch) {
            return HTTPResponse(status: .notModified, headers: headers)
        }
        headers.add(name: "Content-Type", value: "application/json")
        return HTTPResponse(status: .ok, headers: headers, body: ByteBuffer(bytes: snapshot.encoded.bytes))
    }
}
