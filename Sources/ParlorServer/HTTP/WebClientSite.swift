import NIOCore
import NIOHTTP1
import ParlorWeb
import ParlorWire
import SystemTLS
import WebSocketCore

/// The browser client on the server's own port: `GET /` is the app (a join link is `/?code=ABCD`, an
/// invitation's `/join/ABCD?invite=…`, a finished game's replay `/replay/ABCD`) and `GET /web/…` its
/// styles and modules. Each file is read, hashed and compressed once; a request gets
/// it with a strong `ETag` (a `304` when `If-None-Match` names it), gzip when it accepts that, and a
/// Content-Security-Policy that lets the page load only its own scripts and styles and talk only to
/// this server — so a name a player typed can never run as script on another player's phone.
struct WebClientSite: Sendable {
    /// One file, ready to send.
    struct Asset: Sendable {
        let contentType: String
        let etag: String
        let body: ByteBuffer
        /// The gzip form, when it is smaller.
        let gzipped: ByteBuffer?
    }

    /// The assets by URL path (`/`, `/web/js/app.js`).
    let assets: [String: Asset]

    /// What every page and file is sent with.
    static let contentSecurityPolicy = [
        "default-src 'none'", "script-src 'self'", "style-src 'self'", "img-src 'self' data: blob:", "connect-src 'self'",
        "manifest-src 'self'", "base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'",
    ].joined(separator: "; ")

    /// Where the site's files other than the page live.
    static let assetPrefix = "web"

    init(files: [WebClientFiles.File]) {
        var assets: [String: Asset] = [:]
        for file in files {
            let digest = SHA256.hash(file.bytes).prefix(12).map { byte in
                let hex = String(byte, radix: 16)
                return byte < 16 ? "0" + hex : hex
            }.joined()
            let gzipped = Gzip.compress(file.bytes).flatMap { $0.count < file.bytes.count ? ByteBuffer(bytes: $0) : nil }
            let asset = Asset(
                contentType: Self.contentType(file.path), etag: "\"\(digest)\"", body: ByteBuffer(bytes: file.bytes),
                gzipped: gzipped)
            assets["/\(Self.assetPrefix)/\(file.path)"] = asset
            if file.path == "index.html" { assets["/"] = asset }
            // The operator's page; its API, not the page, is what the admin token guards.
            if file.path == "admin.html" { assets["/admin"] = asset }
        }
        self.assets = assets
    }

    /// The files shipped with the server, read once per process.
    static func bundled() throws -> WebClientSite { try shipped.get() }

    private static let shipped = Result { () throws(WebClientFilesError) in WebClientSite(files: try WebClientFiles.load()) }

    /// The response for a request to the site; nil when the path is not one of its files.
    func respond(to request: HTTPRequest) -> HTTPResponse? {
        let path = request.path
        guard let asset = assets[Self.isAppAddress(path) ? "/" : path] else { return nil }
        guard request.method == .GET || request.method == .HEAD else {
            var refusal = HTTPRoutes.error(WireError(.methodNotAllowed, "\(request.method) is not supported on \(path)."))
            refusal.headers.add(name: "Allow", value: "GET, HEAD")
            return refusal
        }
        let gzip = asset.gzipped != nil && Gzip.isAccepted(by: request.headers[canonicalForm: "Accept-Encoding"].map(String.init))
        // The compressed form is another representation of the same file: it gets its own tag.
        let etag = gzip ? String(asset.etag.dropLast()) + "-gz\"" : asset.etag
        var headers: HTTPHeaders = [
            "ETag": etag, "Cache-Control": "no-cache", "Content-Security-Policy": Self.contentSecurityPolicy,
            "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer",
        ]
        if asset.gzipped != nil { headers.add(name: "Vary", value: "Accept-Encoding") }
        if EntityTags.matches(etag, request.headers["If-None-Match"]) {
            return HTTPResponse(status: .notModified, headers: headers)
        }
        headers.add(name: "Content-Type", value: asset.contentType)
        if gzip, let gzipped = asset.gzipped {
            headers.add(name: "Content-Encoding", value: "gzip")
            return HTTPResponse(status: .ok, headers: headers, body: gzipped)
        }
        return HTTPResponse(status: .ok, headers: headers, body: asset.body)
    }

    /// Whether `path` is one of the app's own addresses, answered with its page, which reads the code
    /// from the path: an invitation's link `/join/CODE` (`createInvite`'s `link`; the invitation is in
    /// the query) or a finished game's replay `/replay/CODE`. A code is 1–12 ASCII letters and digits.
    static func isAppAddress(_ path: String) -> Bool {
        for prefix in ["/join/", "/replay/"] where path.hasPrefix(prefix) {
            let code = path.utf8.dropFirst(prefix.utf8.count)
            return (1...12).contains(code.count) && code.allSatisfy { (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }
        }
        return false
    }

    /// The media type a file is sent as, by its extension.
    static func contentType(_ path: String) -> String {
        let ext = path.split(separator: ".").last.map { $0.lowercased() } ?? ""
        switch ext {
        case "html": return "text/html; charset=utf-8"
        case "css": return "text/css; charset=utf-8"
        case "js", "mjs": return "text/javascript; charset=utf-8"
        case "json": return "application/json"
        case "webmanifest": return "application/manifest+json"
        case "svg": return "image/svg+xml"
        case "png": return "image/png"
        case "txt": return "text/plain; charset=utf-8"
        default: return "application/octet-stream"
        }
    }
}
