import ParlorRules
import ParlorWire

/// `users`: create your profile, change it, read anyone's, search.
extension AccountsService {
    var profileRoutes: [HTTPRoute] {
        [
            HTTPRoute(.POST, "/users", status: .created) { [self] request throws(WireError) in
                let body = try request.body(CreateProfileBody.self)
                return { [self] context throws(WireError) in .reply(try EncodedJSON.encoding(try await createProfile(body, by: context.signedIn()))) }
            },
            HTTPRoute(.GET, "/users/{id}") { [self] request throws(WireError) in
                let user = try Self.userID(request.parameters[0], field: "id")
                return { [self] _ throws(WireError) in
                    guard let profile = try await profile(of: user) else { throw Self.noProfile(user) }
                    return .reply(try EncodedJSON.encoding(try await view(profile)))
                }
            },
            HTTPRoute(.PUT, "/users/{id}") { [self] request throws(WireError) in
                let user = try Self.userID(request.parameters[0], field: "id")
                let body = try request.body(UpdateProfileBody.self)
                return { [self] context throws(WireError) in
                    guard user == (try context.signedIn()) else { throw WireError(.forbidden, "You can change only your own profile.") }
                    return .reply(try EncodedJSON.encoding(try await updateProfile(of: user, body)))
                }
            },
            HTTPRoute(.GET, "/users") { [self] request throws(WireError) in
                let text = ProfileText.fold(request.query["search"] ?? "")
                guard Self.searchLength.contains(text.count) else {
                    throw WireError(
                        .invalidInput,
                        "Search with ?search= and \(Self.searchLength.lowerBound) to \(Self.searchLength.upperBound) characters of a name, nickname or handle.")
                }
                return { [self] _ throws(WireError) in .reply(try EncodedJSON.encoding(try await search(text))) }
            },
        ]
    }

    func createProfile(_ body: CreateProfileBody, by user: UserID) async throws(WireError) -> ProfileView {
        let now = clock.now
        let profile = ProfileRules.record(
            user: user, handle: try ProfileRules.handle(body.handle), displayName: try ProfileRules.displayName(body.displayName),
            nickname: try ProfileRules.nickname(body.nickname), avatarURL: nil, createdAt: now, updatedAt: now)
        let outcome = try await logger.storing("save the profile of \(user)") { () async throws(StoreError) in
            try await store.saveProfile(profile, creating: true)
        }
        try Self.check(outcome, handle: profile.handle, user: user)
        return try await view(profile)
    }

    func updateProfile(of user: UserID, _ body: UpdateProfileBody) async throws(WireError) -> ProfileView {
        guard var profile = try await profile(of: user) else { throw Self.noProfile(user) }
        switch body.displayName {
        case .unchanged: break
        case .set(let name?): profile.displayName = try ProfileRules.displayName(name)
        case .set(nil): throw WireError(.invalidInput, "display_name cannot be null; leave it out to keep it.")
        }
        switch body.handle {
        case .unchanged: break
        case .set(let handle?): profile.handle = try ProfileRules.handle(handle)
        case .set(nil): throw WireError(.invalidInput, "handle cannot be null; leave it out to keep it.")
        }
        if case .set(let nickname) = body.nickname { profile.nickname = try ProfileRules.nickname(nickname) }
        if case .set(let url) = body.avatarURL { profile.avatarURL = try ProfileRules.avatarURL(url) }
        let updated = ProfileRules.record(
            user: user, handle: profile.handle, displayName: profile.displayName, nickname: profile.nickname, avatarURL: profile.avatarURL,
            createdAt: profile.createdAt, updatedAt: clock.now)
        let outcome = try await logger.storing("save the profile of \(user)") { () async throws(StoreError) in
            try await store.saveProfile(updated, creating: false)
        }
        try Self.check(outcome, handle: updated.handle, user: user)
        await feeds.profileChanged(user)
        return try await view(updated)
    }

    func search(_ text: String) async throws(WireError) -> [ProfileView] {
        let found = try await logger.storing("search profiles") { () async throws(StoreError) in
            try await store.searchProfiles(text, limit: Self.searchLimit)
        }
        var views: [ProfileView] = []
        for profile in found { views.append(try await view(profile)) }
        return views
    }

    private static func check(_ outcome: ProfileWriteOutcome, handle: String, user: UserID) throws(WireError) {
        switch outcome {
        case .saved: return
        case .profileExists: throw WireError(.profileExists, "You already have a profile; change it with PUT /users/\(user).")
        case .profileMissing: throw noProfile(user)
        case .handleTaken: throw WireError(.handleTaken, "The handle \(handle) is taken; choose another.")
        }
    }

    static func noProfile(_ user: UserID) -> WireError {
        WireError(.profileNotFound, "User \(user) has no profile.")
    }
}
