import ParlorRules

/// Accounts from other sign-in providers, in memory.
extension InMemoryStore {
    public func user(forIssuer issuer: String, subject: String, newUser: UserID) async throws(StoreError) -> UserID {
        state.withLockedValue { state in
            let identity = ExternalIdentity(issuer: issuer, subject: subject)
            if let known = state.externalIdentities[identity] { return known }
            state.externalIdentities[identity] = newUser
            return newUser
        }
    }

    public func hasExternalIdentity(_ user: UserID) async throws(StoreError) -> Bool {
        state.withLockedValue { $0.externalIdentities.values.contains(user) }
    }

    public func link(issuer: String, subject: String, to user: UserID) async throws(StoreError) -> ExternalLinkOutcome {
        state.withLockedValue { state in
            let identity = ExternalIdentity(issuer: issuer, subject: subject)
            if let known = state.externalIdentities[identity] { return known == user ? .alreadyLinked : .accountHasAnotherUser }
            if state.externalIdentities.values.contains(user) { return .userHasAnotherAccount }
            state.externalIdentities[identity] = user
            return .linked
        }
    }
}
