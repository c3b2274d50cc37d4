import ParlorRules
import ParlorWire

/// What a profile may hold (seed `darts-srs.md`, `users`): a handle of 3–20 characters `[a-z0-9_]`,
/// unique ignoring case (kept lowercase); a display name of 1–50 characters and a nickname of 0–50,
/// as every display name in Parlor is checked; an avatar URL that is a web address or a path.
enum ProfileRules {
    static let handleLength = 3...20
    static let nameMaxCharacters = 50
    static let avatarURLMaxBytes = 2048

    static func handle(_ raw: String) throws(WireError) -> String {
        let handle = raw.lowercased()
        let allowed = handle.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }
        guard allowed, handleLength.contains(handle.count) else {
            throw WireError(
                .invalidInput, "handle must be 3 to 20 characters, each a-z, 0-9 or _ (got \"\(Self.clip(raw))\").")
        }
        return handle
    }

    static func displayName(_ raw: String) throws(WireError) -> String {
        try name(raw, field: "display_name")
    }

    /// Nil (or blank): no nickname.
    static func nickname(_ raw: String?) throws(WireError) -> String? {
        guard let raw, !raw.allSatisfy(\.isWhitespace) else { return nil }
        return try name(raw, field: "nickname")
    }

    static func avatarURL(_ raw: String?) throws(WireError) -> String? {
        guard let raw else { return nil }
        let isWebAddress = raw.hasPrefix("https://") || raw.hasPrefix("http://") || raw.hasPrefix("/")
        let isPlain = !raw.unicodeScalars.contains { $0.properties.isWhitespace || $0.properties.generalCategory == .control }
        guard isWebAddress, isPlain, raw.utf8.count <= avatarURLMaxBytes else {
            throw WireError(
                .invalidInput,
                "avatar_url must be an http(s) address or a path on this server, without spaces, at most \(avatarURLMaxBytes) bytes.")
        }
        return raw
    }

    private static func name(_ raw: String, field: String) throws(WireError) -> String {
        switch DisplayName.validate(raw, maxCharacters: nameMaxCharacters) {
        case .success(let name): return name
        case .failure(let problem): throw WireError(.invalidInput, DisplayName.sentence(for: problem, field: field))
        }
    }

    /// Echoed input is cut short so a huge value cannot bloat a reply.
    static func clip(_ text: String) -> String { text.count <= 24 ? text : String(text.prefix(24)) + "…" }

    /// A profile record with its search fields filled from its name and nickname.
    static func record(
        user: UserID, handle: String, displayName: String, nickname: String?, avatarURL: String?, createdAt: Instant, updatedAt: Instant
    ) -> ProfileRecord {
        ProfileRecord(
            user: user, handle: handle, displayName: displayName, nickname: nickname, avatarURL: avatarURL,
            searchName: ProfileText.fold(displayName), searchNickname: ProfileText.fold(nickname ?? ""), createdAt: createdAt,
            updatedAt: updatedAt)
    }
}

extension ProfileRecord {
    func view(stats: ProfileStats) -> ProfileView {
        ProfileView(
            id: user, displayName: displayName, nickname: nickname, handle: handle, avatarURL: avatarURL,
            createdAt: createdAt.iso8601, updatedAt: updatedAt.iso8601, stats: stats)
    }

    var friendProfile: FriendProfile {
        FriendProfile(id: user, displayName: displayName, nickname: nickname, handle: handle, avatarURL: avatarURL)
    }
}

extension FriendshipRecord {
    /// The row as `user` sees it: the other side's profile, and their presence once friends.
    func view(for user: UserID, other: ProfileRecord, presence: Presence.Status?) -> FriendshipView {
        FriendshipView(
            id: id, requesterId: requester, addresseeId: addressee, status: status.rawValue, createdAt: createdAt.iso8601,
            updatedAt: updatedAt.iso8601, friend: other.friendProfile,
            presence: status == .accepted ? presence.map(FriendPresence.init) : nil)
    }
}

extension FriendPresence {
    init(_ status: Presence.Status) {
        self.init(online: status.online, playing: status.playing.map { Playing(game: $0.kind, code: $0.code) })
    }
}
