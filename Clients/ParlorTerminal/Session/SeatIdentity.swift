import Foundation

/// Joining again with this terminal's identity gives back the seat it already has, under the name it
/// already has. When the command asked for another name, the person most likely meant to be someone
/// else (a second player on one machine): say so instead of showing the other seat as "(you)".
enum SeatIdentity {
    /// The sentence that refuses, or nil when the seat is under the name asked for.
    static func refusal(asked: String, seated: String, code: String, profile: String?) -> String? {
        let trimmed = asked.trimmingCharacters(in: .whitespaces)
        guard trimmed.caseInsensitiveCompare(seated) != .orderedSame else { return nil }
        let which = profile.map { "the profile \($0)" } ?? "this profile"
        return "You are already seated as \(seated) in \(code) with \(which); use --profile to play as someone else "
            + "(or leave out --name to come back as \(seated))."
    }
}
