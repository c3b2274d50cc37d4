import Foundation
import Logging
import NIOCore
import NIOHTTP1
import ParlorMedia
import ParlorRules
import ParlorWire
import SystemTLS
import WebSocketCore

/// Profile pictures, in the seed's Supabase Storage paths: `POST /storage/v1/object/avatars/{user_id}/{name}`
/// (or `POST /storage/v1/object/avatars`, the server naming the file) with a PNG or JPEG body, served
/// publicly at `GET /storage/v1/object/public/avatars/{user_id}/{name}`.
///
/// The type is judged by the bytes, never by the `Content-Type` sent; a JPEG loses its EXIF (GPS, the
/// camera, the time), XMP and comments and a PNG its text, EXIF and time chunks before anything is
/// stored, so what is served says nothing about where a picture was taken. Each user keeps one avatar:
/// a new upload removes the files it replaces, and a profile whose `avatar_url` named one of them is
/// pointed at the new one.
struct Avatars: Sendable {
    static let bucket = "avatars"
    /// The largest upload (the listener refuses more with 413 before reading it).
    static let maxBytes = 2 * 1024 * 1024
    /// The largest picture, each way: bigger ones are no avatar and cost every client memory to decode.
    static let maxPixels = 4096
    /// How long clients and caches may use a picture before asking again (with its ETag).
    static let cacheControl = "public, max-age=60"

    let storage: any ObjectStorage
    let store: any ParlorStore
    let feeds: FriendsFeeds
    let locks = UserLocks()
    let clock: any ParlorClock
    let logger: Logger

    var routes: [HTTPRoute] {
        [
            HTTPRoute(.POST, "/storage/v1/object/{bucket}/{path*}", maxBodySize: Self.maxBytes) { request, user throws(WireError) in
                try await upload(bucket: request.parameters[0], path: request.parameters[1], request.request, by: HTTPRoutes.signedIn(user))
            },
            HTTPRoute(.POST, "/storage/v1/object/{bucket}", maxBodySize: Self.maxBytes) { request, user throws(WireError) in
                try await upload(bucket: request.parameters[0], path: nil, request.request, by: HTTPRoutes.signedIn(user))
            },
            HTTPRoute(.GET, "/storage/v1/object/public/{bucket}/{path*}", access: .anyone) { request, _ throws(WireError) in
                try await serve(bucket: request.parameters[0], path: request.parameters[1], request.request)
            },
        ]
    }

    // MARK: Upload

    /// Stores the picture at `path` (`{user_id}/{name}`), or under a name the server makes when nil.
    func upload(bucket: String, path: String?, _ request: HTTPRequest, by user: UserID) async throws(WireError) -> HTTPResponse {
        guard bucket == Self.bucket else { throw Self.noBucket(bucket) }
        let bytes = Array(request.body.readableBytesView)
        let (image, format) = try Self.stripped(bytes)
        let name: String
        if let path {
            name = try Self.ownName(in: path, of: user)
        } else {
            name = "\(UUID().uuidString.lowercased()).\(format == .jpeg ? "jpg" : "png")"
        }
        let folder = user.rawValue
        try await locks.serialize(user) { () async throws(WireError) in
            try await logger.storing("store the avatar of \(user)") { () async throws(StoreError) in
                try await storage.write(image, folder: folder, name: name)
                let replaced = try await storage.list(folder: folder).filter { $0 != name }
                for old in replaced { try await storage.remove(folder: folder, name: old) }
                try await repoint(user, from: replaced, to: name)
            }
        }
        let key = try EncodedJSON.encoding(["Key": "\(Self.bucket)/\(folder)/\(name)"])
        return HTTPRoutes.json(.ok, key)
    }

    /// A profile whose `avatar_url` named a replaced file names the new one (same address but the name).
    private func repoint(_ user: UserID, from replaced: [String], to name: String) async throws(StoreError) {
        guard !replaced.isEmpty, var profile = try await store.profiles([user]).first, let url = profile.avatarURL else { return }
        let folderPath = "/\(Self.bucket)/\(user.rawValue)/"
        guard let old = replaced.first(where: { url.hasSuffix(folderPath + $0) }) else { return }
        profile.avatarURL = String(url.dropLast(old.count)) + name
        profile.updatedAt = clock.now
        _ = try await store.saveProfile(profile, creating: false)
        await feeds.profileChanged(user)
    }

    /// The picture without its metadata, and its format, judged by its bytes.
    static func stripped(_ bytes: [UInt8]) throws(WireError) -> ([UInt8], ImageFormat) {
        guard let format = ImageFormat.sniff(bytes) else {
            throw WireError(.unsupportedMediaType, "An avatar must be a PNG or JPEG file; these bytes are neither.")
        }
        do {
            switch format {
            case .jpeg:
                let jpeg = try JPEGFile(bytes)
                try checkSize(jpeg.pixelSize)
                return (try jpeg.withoutMetadata(), format)
            case .png:
                let png = try PNGFile(bytes)
                try checkSize(png.pixelSize)
                return (png.withoutMetadata(), format)
            }
        } catch let error as MediaError {
            throw WireError(.unsupportedMediaType, "The file starts as a \(format.rawValue.uppercased()) but cannot be read: \(error.reason).")
        } catch let error as WireError {
            throw error
        } catch {
            throw WireError(.unsupportedMediaType, "The file cannot be read as an image.")
        }
    }

    private static func checkSize(_ size: (width: Int, height: Int)?) throws(WireError) {
        guard let size else { throw WireError(.unsupportedMediaType, "The JPEG has no frame header, so no size.") }
        guard size.width <= maxPixels, size.height <= maxPixels, size.width > 0, size.height > 0 else {
            throw WireError(
                .requestTooLarge, "The picture is \(size.width) × \(size.height) pixels; an avatar is at most \(maxPixels) × \(maxPixels).")
        }
    }

    /// `name` from `{user_id}/{name}` when the folder is the caller's.
    private static func ownName(in path: String, of user: UserID) throws(WireError) -> String {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard parts.count >= 2, UserID(parts[0]) == user else {
            throw WireError(.forbidden, "You can upload only into your own folder: avatars/\(user.rawValue)/<name>.")
        }
        guard parts.count == 2, let name = AvatarName(parts[1]) else {
            throw WireError(
                .invalidInput,
                "Name the file avatars/\(user.rawValue)/<name>, the name 1 to \(AvatarName.maxLength) letters, digits, '.', '_' or '-', not starting with '.'.")
        }
        return name.rawValue
    }

    // MARK: Serving

    func serve(bucket: String, path: String, _ request: HTTPRequest) async throws(WireError) -> HTTPResponse {
        guard bucket == Self.bucket else { throw Self.noBucket(bucket) }
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2, let owner = UserID(parts[0]), let name = AvatarName(parts[1]) else { throw Self.noObject(path) }
        let stored = try await logger.storing("read an avatar") { () async throws(StoreError) in
            try await storage.read(folder: owner.rawValue, name: name.rawValue)
        }
        guard let bytes = stored, let format = ImageFormat.sniff(bytes) else { throw Self.noObject(path) }
        let tag = "\"" + SHA256.hash(bytes).prefix(16).map { String($0, radix: 16).leftPadded(to: 2) }.joined() + "\""
        var headers: HTTPHeaders = ["ETag": tag, "Cache-Control": Self.cacheControl]
        if let match = request.headers.first(name: "If-None-Match"), match.split(separator: ",").contains(where: {
            $0.trimmingCharacters(in: .whitespaces) == tag
        }) {
            return HTTPResponse(status: .notModified, headers: headers)
        }
        headers.add(name: "Content-Type", value: format.mediaType)
        return HTTPResponse(status: .ok, headers: headers, body: ByteBuffer(bytes: bytes))
    }

    // MARK: Errors

    private static func noBucket(_ bucket: String) -> WireError {
        WireError(.bucketNotFound, "There is no bucket \"\(ProfileRules.clip(bucket))\"; avatars go in \"\(Self.bucket)\".")
    }

    private static func noObject(_ path: String) -> WireError {
        WireError(.objectNotFound, "There is no avatar at \(Self.bucket)/\(ProfileRules.clip(path)).")
    }

}

/// A file name in a user's avatar folder: 1–100 letters, digits, `.`, `_` or `-`, not starting with a
/// dot — so a name can never climb out of the folder or hide in it.
struct AvatarName: Sendable {
    static let maxLength = 100
    let rawValue: String

    init?(_ text: String) {
        guard (1...Self.maxLength).contains(text.utf8.count), !text.hasPrefix("."),
            text.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "._-".unicodeScalars.contains($0)) })
        else { return nil }
        rawValue = text
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
