/// An account at another sign-in provider: the issuer that vouches for it (a JWT's `iss`) and its id
/// there (`sub`). Each signs in as one Parlor user.
struct ExternalIdentity: Hashable, Sendable {
    let issuer: String
    let subject: String
}
