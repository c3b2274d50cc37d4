import ParlorWire

extension ParlorClient {
    /// Makes the identity this client is signed in as (an anonymous one, with its profile, history and
    /// friends) the account's that `jwt` names, once: from then on the account signs in as it on every
    /// device. Refused with `ACCOUNT_ALREADY_LINKED` when the account already has its own identity, and
    /// `ALREADY_LINKED` when this identity is another account's.
    public func linkAccount(jwt: String) async throws(ParlorClientError) -> LinkAccountResult {
        try await call(Operation.linkAccount, LinkAccountArguments(jwt: jwt))
    }
}
