import Foundation
import ParlorTestSupport
import Testing
@testable import ParlorServer

/// Avatars in the seed's storage paths: only into your own folder, PNG or JPEG by their bytes, at most
/// 2 MiB and 4096 pixels a side, stored without metadata, served with type, ETag and caching headers;
/// one per user, the replaced file removed.
@Suite struct AvatarHTTPTests {
    static let upload = "/storage/v1/object/avatars"
    static let serve = "/storage/v1/object/public/avatars"

    @Test func aJPEGLosesItsEXIFAndIsServedWithItsHeaders() async throws {
        try await withParlor(configure: accountLimits) { parlor in
            let ann = try await parlor.member("ann", "Ann")
            // The type said is wrong: the bytes decide.
            let stored = try await parlor.send(
                "POST", "\(Self.upload)/\(ann.id)/me.jpg", bytes: TestImages.jpeg(), contentType: "image/png", token: ann.token)
            #expect(stored.status == 200)
            #expect((stored.body as? [String: Any])?["Key"] as? String == "avatars/\(ann.id)/me.jpg")

            // Anyone may fetch it, signed in or not (it is what <img> and AsyncImage load).
            let served = try await parlor.send("GET", "\(Self.serve)/\(ann.id)/me.jpg")
            #expect(served.status == 200 && served.headers["content-type"] == "image/jpeg")
            #expect(served.bytes == TestImages.strippedJPEG())
            #expect(!served.bytes.contains("GPS") && !served.bytes.contains("Exif"))
            let tag = try #require(served.headers["etag"])
            #expect(tag.hasPrefix("\"") && tag.count == 34 && served.headers["cache-control"] == Avatars.cacheControl)
            let again = try await parlor.send("GET", "\(Self.serve)/\(ann.id)/me.jpg", headers: [("If-None-Match", tag)])
            #expect(again.status == 304 && again.bytes.isEmpty && again.headers["etag"] == tag)
        }
    }

    /// A photo as a phone takes it: the round trip keeps which way up it is and loses where it was taken.
    @Test func aPhonePhotoLosesItsGPSTagAndKeepsItsOrientation() async throws {
        try await withParlor(configure: accountLimits) { parlor in
            let ann = try await parlor.member("ann", "Ann")
            let gpsTag: [UInt8] = [0x88, 0x25, 0x00, 0x04]
            let latitude: [UInt8] = [0x00, 0x00, 0x0A, 0x68, 0x00, 0x00, 0x00, 0x64]
            #expect(TestImages.phonePhoto.contains(bytes: gpsTag) && TestImages.phonePhoto.contains(bytes: latitude))
            let stored = try await parlor.send("POST", "\(Self.upload)/\(ann.id)/photo.jpg", bytes: TestImages.phonePhoto, token: ann.token)
            #expect(stored.status == 200)
            let served = try await parlor.send("GET", "\(Self.serve)/\(ann.id)/photo.jpg")
            #expect(served.status == 200 && served.headers["content-type"] == "image/jpeg")
            #expect(!served.bytes.contains(bytes: gpsTag) && !served.bytes.contains(bytes: latitude))
            #expect(served.bytes == TestImages.strippedPhonePhoto)
        }
    }

    @Test func aPNGLosesItsTextChunks() async throws {
        try await withParlor(configure: accountLimits) { parlor in
            let ann = try await parlor.signUp()
            let stored = try await parlor.send("POST", Self.upload, bytes: TestImages.png, contentType: "image/png", token: ann.token)
            #expect(stored.status == 200)
            let key = try #require((stored.body as? [String: Any])?["Key"] as? String)
            #expect(key.hasPrefix("avatars/\(ann.id)/") && key.hasSuffix(".png"))
            let served = try await parlor.send("GET", "/storage/v1/object/public/\(key)")
            #expect(served.status == 200 && served.headers["content-type"] == "image/png" && served.bytes == TestImages.strippedPNG)
        }
    }

    @Test func aNewAvatarReplacesTheOldFileAndTheProfileFollows() async throws {
        try await withParlor(configure: accountLimits) { parlor in
            let ann = try await parlor.member("ann", "Ann")
            #expect(try await parlor.send("POST", "\(Self.upload)/\(ann.id)/first.jpg", bytes: TestImages.jpeg(), token: ann.token).status == 200)
            let url = "https://parlor.example\(Self.serve)/\(ann.id)/first.jpg"
            #expect(try await parlor.http("PUT", "/users/\(ann.id)", body: ["avatar_url": url], token: ann.token).0 == 200)

            #expect(try await parlor.send("POST", "\(Self.upload)/\(ann.id)/second.png", bytes: TestImages.png, token: ann.token).status == 200)
            let old = try await parlor.send("GET", "\(Self.serve)/\(ann.id)/first.jpg")
            #expect(old.status == 404 && errorCode(old.body) == "OBJECT_NOT_FOUND")
            #expect(try await parlor.send("GET", "\(Self.serve)/\(ann.id)/second.png").status == 200)
            let profile = try await parlor.http("GET", "/users/\(ann.id)", token: ann.token)
            #expect((profile.1 as? [String: Any])?["avatar_url"] as? String == "https://parlor.example\(Self.serve)/\(ann.id)/second.png")
            #expect(try await parlor.services.accounts.avatars.storage.list(folder: ann.id) == ["second.png"])
        }
    }

    @Test func everyRefusal() async throws {
        try await withParlor(configure: accountLimits) { parlor in
            let ann = try await parlor.signUp()
            let bo = try await parlor.signUp()
            let jpeg = TestImages.jpeg()
            func refused(_ path: String, _ bytes: [UInt8], token: String?) async throws -> (Int, String?) {
                let answer = try await parlor.send("POST", path, bytes: bytes, contentType: "image/jpeg", token: token)
                return (answer.status, errorCode(answer.body))
            }
            #expect(try await refused("\(Self.upload)/\(bo.id)/me.jpg", jpeg, token: ann.token) == (403, "FORBIDDEN"))
            #expect(try await refused("\(Self.upload)/me.jpg", jpeg, token: ann.token) == (403, "FORBIDDEN"))
            #expect(try await refused("\(Self.upload)/\(ann.id)/a/me.jpg", jpeg, token: ann.token) == (400, "INVALID_INPUT"))
            #expect(try await refused("\(Self.upload)/\(ann.id)/.htaccess", jpeg, token: ann.token) == (400, "INVALID_INPUT"))
            #expect(try await refused("\(Self.upload)/\(ann.id)/..", jpeg, token: ann.token) == (400, "INVALID_INPUT"))
            #expect(try await refused("/storage/v1/object/photos/\(ann.id)/me.jpg", jpeg, token: ann.token) == (404, "BUCKET_NOT_FOUND"))
            #expect(try await refused("/storage/v1/object/photos", jpeg, token: ann.token) == (404, "BUCKET_NOT_FOUND"))
            #expect(try await refused("\(Self.upload)/\(ann.id)/me.jpg", Array("GIF89a....".utf8), token: ann.token) == (415, "UNSUPPORTED_MEDIA_TYPE"))
            #expect(try await refused("\(Self.upload)/\(ann.id)/me.jpg", [0xFF, 0xD8, 0xFF, 0xE0, 0x40, 0], token: ann.token) == (415, "UNSUPPORTED_MEDIA_TYPE"))
            #expect(try await refused("\(Self.upload)/\(ann.id)/me.jpg", [], token: ann.token) == (415, "UNSUPPORTED_MEDIA_TYPE"))
            #expect(try await refused("\(Self.upload)/\(ann.id)/big.jpg", TestImages.jpeg(width: 4097, height: 10), token: ann.token) == (413, "REQUEST_TOO_LARGE"))
            #expect(try await refused("\(Self.upload)/\(ann.id)/me.jpg", jpeg, token: nil) == (401, "UNAUTHENTICATED"))

            // Past 2 MiB the listener refuses on the declared length, before reading the body.
            let tooLarge = try await RawHTTP.exchange(
                port: parlor.port, method: "POST", path: "\(Self.upload)/\(ann.id)/me.jpg", token: ann.token, contentType: "image/jpeg",
                declaredLength: Avatars.maxBytes + 1)
            #expect(tooLarge.status == 413 && tooLarge.text.contains("over \(Avatars.maxBytes) bytes"))

            let missing = try await parlor.send("GET", "\(Self.serve)/\(ann.id)/none.jpg")
            #expect(missing.status == 404 && errorCode(missing.body) == "OBJECT_NOT_FOUND")
            #expect(errorCode(try await parlor.send("GET", "\(Self.serve)/../etc/passwd").body) == "OBJECT_NOT_FOUND")
            #expect(errorCode(try await parlor.send("GET", "/storage/v1/object/public/photos/\(ann.id)/me.jpg").body) == "BUCKET_NOT_FOUND")
            #expect(try await parlor.send("DELETE", "\(Self.serve)/\(ann.id)/none.jpg").status == 405)
        }
    }

    @Test func aBodyUpTo2MiBIsRead() async throws {
        try await withParlor(configure: accountLimits) { parlor in
            let ann = try await parlor.signUp()
            // A JPEG padded with a comment to just under the limit: read whole, and the comment stripped.
            let padding = Array(repeating: UInt8(ascii: "x"), count: 60_000)
            var image = Array(TestImages.jpeg().prefix(2))
            while image.count + 70_000 < Avatars.maxBytes { image += TestImages.segment(0xFE, padding) }
            image += TestImages.jpeg().dropFirst(2)
            let stored = try await parlor.send("POST", "\(Self.upload)/\(ann.id)/padded.jpg", bytes: image, token: ann.token)
            #expect(stored.status == 200)
            #expect(try await parlor.send("GET", "\(Self.serve)/\(ann.id)/padded.jpg").bytes == TestImages.strippedJPEG())
        }
    }
}
