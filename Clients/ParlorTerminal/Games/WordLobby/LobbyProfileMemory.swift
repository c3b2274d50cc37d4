import Foundation
import ParlorClient
import ParlorWire

/// The name, colour and emoji this identity last used in a lobby, so `parlor lobby join CODE` without
/// them comes back as the same player instead of resetting them: joining again replaces the profile on
/// the server, and the server has no "keep mine" (rummy seats keep their name by themselves).
///
/// Kept in the token store under the token's key plus ` lobby CODE` — beside the identity it belongs to,
/// written atomically under the same lock — as `{"username","colorNumber","emojiNumber"}`. Failing to
/// read or write it only costs the convenience.
struct LobbyProfileMemory {
    let store: any TokenStore
    let key: String

    init(_ configuration: ParlorClientConfiguration) {
        store = configuration.tokenStore
        key = configuration.tokenKey
    }

    func profile(inLobby code: String) -> LobbyUserArguments? {
        guard let text = store.token(for: entry(code)) else { return nil }
        return try? JSONDecoder().decode(LobbyUserArguments.self, from: Data(text.utf8))
    }

    func remember(_ user: LobbyUserArguments, inLobby code: String) {
        guard let data = try? JSONEncoder().encode(user) else { return }
        try? store.setToken(String(decoding: data, as: UTF8.self), for: entry(code))
    }

    private func entry(_ code: String) -> String { "\(key) lobby \(code)" }
}
