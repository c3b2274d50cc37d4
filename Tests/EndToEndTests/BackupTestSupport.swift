import Foundation
import Testing

/// What the backup tests set up on a real server: a large file that costs no disk, and a member with an avatar.
enum BackupTestSupport {
    /// A sparse file of `size` bytes (zeros, no disk used) at `path`, its folder created.
    static func makeSparseFile(_ path: String, size: UInt64) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: size)
        try handle.close()
    }

    /// A new member (`POST /session`, `POST /users`) who uploads the JPEG at `jpegPath` as their avatar
    /// `me.jpg`: their id, token and the avatar as the server serves it.
    static func memberWithAvatar(base: String, jpegPath: String) async throws -> (id: String, token: String, avatar: String) {
        let sessionBody = try await curl(["-X", "POST", base + "/session"]).body
        let session = try #require(try JSONSerialization.jsonObject(with: Data(sessionBody.utf8)) as? [String: Any])
        let id = try #require(session["userId"] as? String)
        let token = try #require(session["token"] as? String)
        let profile = try await curl([
            "-X", "POST", "-H", "Authorization: Bearer \(token)", "-H", "Content-Type: application/json",
            "--data", #"{"handle":"ann","display_name":"Ann"}"#, base + "/users",
        ])
        #expect(profile.status == 201, "\(profile.body)")
        let upload = try await curl([
            "-X", "POST", "-H", "Authorization: Bearer \(token)", "-H", "Content-Type: image/jpeg",
            "--data-binary", "@" + jpegPath, base + "/storage/v1/object/avatars/\(id)/me.jpg",
        ])
        #expect(upload.status == 200, "\(upload.body)")
        let served = try await curl([base + "/storage/v1/object/public/avatars/\(id)/me.jpg"])
        #expect(served.status == 200)
        return (id, token, served.body)
    }
}
