import Foundation
import ParlorRules
import SystemTLS

/// What deleting an account does to the games other people played with its user, in every store alike:
/// the games stay (their other players' history, records and tallies are theirs), but the deleted user
/// is no longer in them. Their id becomes a new random id (`pseudonym`) that nothing else in the store
/// names, so seats, turns and records stay consistent and still replay, and every name they played under
/// becomes "deleted player".
///
/// The store never names a game, so neither does this: it reads a game's stored JSON as JSON. A name is a
/// string member whose key contains "name" (`name`, `playerName`, `username`) of an object that also
/// holds the user's id (a seat, a standing) or sits under it as a key, or of an action the user took
/// (their `join`).
struct AccountErasure: Sendable {
    /// What the deleted player is shown as.
    static let deletedName = "deleted player"

    let user: UserID
    let pseudonym: UserID

    /// A game's stored JSON (its state, a record's initial state, an uploaded match) without the user.
    /// Text that is not JSON, or does not name the user, comes back as it was.
    func anonymised(state json: String) -> String {
        guard json.contains(user.rawValue) else { return json }
        return rewrite(json) { value in replacing(value, namesOfActor: false) }
    }

    /// An action the user took, as a record stores it: every name in it is theirs.
    func anonymised(action json: String) -> String {
        rewrite(json) { value in replacing(value, namesOfActor: true) }
    }

    private func rewrite(_ json: String, _ transform: (Any) -> Any) -> String {
        guard let value = try? JSONSerialization.jsonObject(with: Data(json.utf8), options: [.fragmentsAllowed]),
            let data = try? JSONSerialization.data(withJSONObject: transform(value), options: [.fragmentsAllowed, .sortedKeys, .withoutEscapingSlashes])
        else { return json }
        return String(decoding: data, as: UTF8.self)
    }

    private func replacing(_ value: Any, namesOfActor: Bool) -> Any {
        switch value {
        case let text as String:
            return text == user.rawValue ? pseudonym.rawValue : text
        case let array as [Any]:
            return array.map { replacing($0, namesOfActor: namesOfActor) }
        case let object as [String: Any]:
            let holdsUser = object.values.contains { ($0 as? String) == user.rawValue }
            var result: [String: Any] = [:]
            for (key, member) in object {
                // A member under the user's id (`{"<id>": {"username": …}}`) is theirs, names and all.
                let keyedByUser = key == user.rawValue
                if (holdsUser || namesOfActor), member is String, key.lowercased().contains("name") {
                    result[key] = Self.deletedName
                } else {
                    result[keyedByUser ? pseudonym.rawValue : key] = replacing(member, namesOfActor: namesOfActor || keyedByUser)
                }
            }
            return result
        default:
            return value
        }
    }
}

/// The erasure's pseudonym for one deletion, and the fingerprint a deleted user's tokens are refused by.
extension AccountErasure {
    /// A deleted user, as the store remembers them to refuse their tokens: SHA-256 of the id, so the
    /// table of deleted users names nobody.
    static func fingerprint(of user: UserID) -> String {
        SHA256.hash(Array(user.rawValue.utf8)).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }
}
