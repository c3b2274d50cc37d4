import Foundation
import ParlorTestSupport
import ParlorWeb
import Testing
import WebSocketCore
@testable import ParlorServer

/// The browser client on the server's own port: `GET /` and `/web/…` with tags, 304s, gzip, types and
/// a strict Content-Security-Policy, beside the routes that were there before.
@Suite struct WebClientRouteTests {
    @Test func thePageComesWithItsTypeTagAndPolicy() async throws {
        try await withParlor { parlor in
            let page = try await RawHTTP.exchange(port: parlor.port, method: "GET", path: "/")
            #expect(page.status == 200)
            #expect(page.headers["content-type"] == "text/html; charset=utf-8")
            #expect(page.text.contains(#"<script type="module" src="/web/js/app.js"></script>"#))
            let policy = try #require(page.headers["content-security-policy"])
            #expect(policy.contains("default-src 'none'") && policy.contains("script-src 'self'"))
            #expect(policy.contains("connect-src 'self'") && policy.contains("frame-ancestors 'none'"))
            #expect(!policy.contains("unsafe"))
            #expect(page.headers["x-content-type-options"] == "nosniff")
            #expect(page.headers["cache-control"] == "no-cache")
            let etag = try #require(page.headers["etag"])
            #expect(etag.hasPrefix("\"") && etag.hasSuffix("\"") && etag.count == 26)

            // A join link is the same page.
            let link = try await RawHTTP.exchange(port: parlor.port, method: "GET", path: "/?code=ABCD")
            #expect(link.status == 200 && link.headers["etag"] == etag)
            // So is a replay's address, which the page reads; anything else under /replay/ is not.
            let replay = try await RawHTTP.exchange(port: parlor.port, method: "GET", path: "/replay/K7Q2ZD")
            #expect(replay.status == 200 && replay.headers["etag"] == etag)
            for other in ["/replay/", "/replay/K7Q2ZD/more", "/replay/%3Cscript%3E", "/replay/ABCDEFGHIJKLM"] {
                #expect(try await RawHTTP.exchange(port: parlor.port, method: "GET", path: other).status == 404, "\(other)")
            }
        }
    }

    @Test func eachFileHasItsContentType() async throws {
        try await withParlor { parlor in
            for (path, type) in [
                ("/web/style.css", "text/css; charset=utf-8"), ("/web/js/app.js", "text/javascript; charset=utf-8"),
                ("/web/js/connection.js", "text/javascript; charset=utf-8"), ("/web/icon.svg", "image/svg+xml"),
                ("/web/index.html", "text/html; charset=utf-8"),
            ] {
                let response = try await RawHTTP.exchange(port: parlor.port, method: "GET", path: path)
                #expect(response.status == 200, "\(path)")
                #expect(response.headers["content-type"] == type, "\(path)")
                #expect(response.headers["content-security-policy"] == WebClientSite.contentSecurityPolicy, "\(path)")
            }
            // Every module the page imports is served.
            let files = try WebClientFiles.load()
            #expect(files.contains { $0.path == "js/games/wordgame/lobby.js" } && files.contains { $0.path == "js/games/rummy/room.js" })
            for file in files {
                #expect(try await RawHTTP.exchange(port: parlor.port, method: "GET", path: "/web/\(file.path)").bytes == file.bytes)
            }
        }
    }

    @Test func aKnownTagIsAnsweredWithNotModified() async throws {
        try await withParlor { parlor in
            let first = try await RawHTTP.exchange(port: parlor.port, method: "GET", path: "/web/js/app.js")
            let etag = try #require(first.headers["etag"])
            let again = try await RawHTTP.exchange(
                port: parlor.port, method: "GET", path: "/web/js/app.js", headers: [("If-None-Match", etag)])
            #expect(again.status == 304 && again.bytes.isEmpty)
            #expect(again.headers["etag"] == etag)
            let weak = try await RawHTTP.exchange(
                port: parlor.port, method: "GET", path: "/web/js/app.js", headers: [("If-None-Match", "\"other\", W/\(etag)")])
            #expect(weak.status == 304)
            let stale = try await RawHTTP.exchange(
                port: parlor.port, method: "GET", path: "/web/js/app.js", headers: [("If-None-Match", "\"0123\"")])
            #expect(stale.status == 200 && stale.bytes == first.bytes)
        }
    }

    @Test func gzipGoesOnlyToClientsThatAcceptIt() async throws {
        try await withParlor { parlor in
            let plain = try await RawHTTP.exchange(port: parlor.port, method: "GET", path: "/web/js/connection.js")
            #expect(plain.headers["content-encoding"] == nil)
            #expect(plain.headers["vary"] == "Accept-Encoding")

            let zipped = try await RawHTTP.exchange(
                port: parlor.port, method: "GET", path: "/web/js/connection.js", headers: [("Accept-Encoding", "gzip, deflate, br")])
            #expect(zipped.headers["content-encoding"] == "gzip")
            #expect(zipped.bytes.count < plain.bytes.count)
            let zippedTag = try #require(zipped.headers["etag"])
            #expect(zippedTag != plain.headers["etag"] && zippedTag.hasSuffix("-gz\""))
            let unzipped = try await ExternalProcess.run(["gzip", "-dc"], stdin: Data(zipped.bytes))
            #expect(unzipped.status == 0)
            #expect(Array(unzipped.stdout.utf8) == plain.bytes)

            let zippedAgain = try await RawHTTP.exchange(
                port: parlor.port, method: "GET", path: "/web/js/connection.js",
                headers: [("Accept-Encoding", "gzip"), ("If-None-Match", zippedTag)])
            #expect(zippedAgain.status == 304 && zippedAgain.headers["etag"] == zippedTag)

            let refused = try await RawHTTP.exchange(
                port: parlor.port, method: "GET", path: "/web/js/connection.js", headers: [("Accept-Encoding", "gzip;q=0, *")])
            #expect(refused.headers["content-encoding"] == nil && refused.bytes == plain.bytes)
        }
    }

    @Test func headSendsTheHeadersAndOtherMethodsAreRefused() async throws {
        try await withParlor { parlor in
            let head = try await RawHTTP.exchange(port: parlor.port, method: "HEAD", path: "/web/style.css")
            #expect(head.status == 200 && head.bytes.isEmpty && head.headers["etag"] != nil)
            let post = try await RawHTTP.exchange(port: parlor.port, method: "POST", path: "/", body: Data("{}".utf8))
            #expect(post.status == 405)
            #expect(post.headers["allow"] == "GET, HEAD")
            #expect(((post.body as? [String: Any])?["error"] as? [String: Any])?["code"] as? String == "METHOD_NOT_ALLOWED")
            let missing = try await RawHTTP.exchange(port: parlor.port, method: "GET", path: "/web/nothing.js")
            #expect(missing.status == 404)
            #expect(((missing.body as? [String: Any])?["error"] as? [String: Any])?["code"] as? String == "NOT_FOUND")
            let escape = try await RawHTTP.exchange(port: parlor.port, method: "GET", path: "/web/../Package.swift")
            #expect(escape.status == 404)
        }
    }

    @Test func theOtherRoutesAreUndisturbed() async throws {
        try await withParlor { parlor in
            #expect(try await parlor.http("GET", "/healthz").0 == 200)
            #expect(try await parlor.http("GET", "/metrics").0 == 200)
            #expect(try await parlor.http("GET", "/ws").0 == 426)
            #expect(try await parlor.http("GET", "/catalog").0 == 200)
            #expect(try await parlor.http("POST", "/session").0 == 200)
            #expect(try await parlor.http("GET", "/rooms/ZZZZZZ").0 == 404)
            try await parlor.connect { client in
                let hello = try await client.call("hello")
                #expect(hello["result"] != nil)
            }
        }
    }

    @Test func acceptEncodingIsReadByQuality() {
        #expect(Gzip.isAccepted(by: ["gzip"]))
        #expect(Gzip.isAccepted(by: ["br;q=1.0, gzip;q=0.8"]))
        #expect(Gzip.isAccepted(by: ["*"]))
        #expect(!Gzip.isAccepted(by: []))
        #expect(!Gzip.isAccepted(by: ["identity"]))
        #expect(!Gzip.isAccepted(by: ["gzip;q=0"]))
        #expect(!Gzip.isAccepted(by: ["GZIP; Q=0, *;q=1"]))
    }
}
