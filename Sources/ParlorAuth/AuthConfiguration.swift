import Foundation
import SystemTLS

/// Who may sign in, and with which accounts (`--auth-config auth.json`, `PARLOR_AUTH_CONFIG`): the
/// server's mode and the issuers whose JWTs it accepts, each with its audiences, its algorithms and its
/// keys. Read once at start-up; a bad file stops the server with the field it could not take.
public struct AuthConfiguration: Sendable {
    public enum Mode: String, Sendable, CaseIterable {
        /// Anonymous sign-in only (the default): a `jwt` is refused with AUTH_NOT_CONFIGURED.
        case anonymous
        /// Anonymous sign-in, or a JWT from a configured issuer.
        case optional
        /// A JWT from a configured issuer; an anonymous `hello` is refused with AUTH_REQUIRED.
        case required
    }

    /// An issuer whose tokens sign players in.
    public struct Issuer: Sendable {
        /// The token's `iss`, exactly.
        public var iss: String
        /// Accepted `aud` values: a token must name at least one.
        public var audiences: [String]
        /// The algorithms its tokens may use; any other is refused.
        public var algorithms: [JWSAlgorithm]
        /// The HMAC secret (its UTF-8 bytes), for HS256/384/512 (Supabase's legacy projects).
        public var secret: [UInt8]?
        /// Static public keys (PEM), tried in turn for a token without a `kid` they answer to.
        public var publicKeys: [PublicKey]
        /// A JWKS document: keys by `kid`, fetched and cached (`JWKSKeys`).
        public var jwksURL: HTTPURL?

        public init(
            iss: String, audiences: [String], algorithms: [JWSAlgorithm], secret: [UInt8]? = nil, publicKeys: [PublicKey] = [],
            jwksURL: HTTPURL? = nil
        ) {
            self.iss = iss
            self.audiences = audiences
            self.algorithms = algorithms
            self.secret = secret
            self.publicKeys = publicKeys
            self.jwksURL = jwksURL
        }
    }

    public var mode: Mode = .anonymous
    public var issuers: [Issuer] = []
    /// How far `exp`, `nbf` and `iat` may be off the server's clock (seconds).
    public var clockSkewSeconds: Int = 60
    /// How long a connection whose JWT expired has to send a fresh one (`refreshAuth`) before it is
    /// closed (seconds).
    public var expiryGraceSeconds: Int = 60
    /// Tokens longer than this are refused before anything is decoded.
    public var maxTokenBytes: Int = 8 * 1024

    public init(mode: Mode = .anonymous, issuers: [Issuer] = [], clockSkewSeconds: Int = 60) {
        self.mode = mode
        self.issuers = issuers
        self.clockSkewSeconds = clockSkewSeconds
    }

    /// Reads the file at `path`.
    public static func load(path: String) throws(AuthConfigurationError) -> AuthConfiguration {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw AuthConfigurationError(field: nil, "cannot read \(path)")
        }
        return try parse(data)
    }

    /// Reads a configuration document; an error names the field it could not take.
    public static func parse(_ data: Data) throws(AuthConfigurationError) -> AuthConfiguration {
        let root: [String: Any]
        do {
            guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
                throw AuthConfigurationError(field: nil, "the document must be a JSON object")
            }
            root = object
        } catch let error as AuthConfigurationError {
            throw error
        } catch {
            throw AuthConfigurationError(field: nil, "not valid JSON")
        }
        let fields = ConfigurationFields(root, path: "")
        try fields.onlyKnown(["mode", "issuers", "clockSkewSeconds", "expiryGraceSeconds"])
        var configuration = AuthConfiguration()
        let issuerList = try fields.array("issuers") ?? []
        var seen: Set<String> = []
        for (index, element) in issuerList.enumerated() {
            let path = "issuers[\(index)]"
            guard let object = element as? [String: Any] else { throw AuthConfigurationError(field: path, "must be an object") }
            let issuer = try Self.issuer(ConfigurationFields(object, path: path))
            guard seen.insert(issuer.iss).inserted else {
                throw AuthConfigurationError(field: "\(path).iss", "\(issuer.iss) is configured twice")
            }
            configuration.issuers.append(issuer)
        }
        if let mode = try fields.string("mode") {
            guard let known = Mode(rawValue: mode) else {
                throw AuthConfigurationError(field: "mode", "must be anonymous, optional or required (got \(mode))")
            }
            configuration.mode = known
        } else {
            configuration.mode = configuration.issuers.isEmpty ? .anonymous : .optional
        }
        if configuration.mode != .anonymous && configuration.issuers.isEmpty {
            throw AuthConfigurationError(field: "issuers", "mode \(configuration.mode.rawValue) needs at least one issuer")
        }
        if let skew = try fields.integer("clockSkewSeconds") {
            guard (0...600).contains(skew) else {
                throw AuthConfigurationError(field: "clockSkewSeconds", "must be between 0 and 600 (got \(skew))")
            }
            configuration.clockSkewSeconds = skew
        }
        if let grace = try fields.integer("expiryGraceSeconds") {
            guard (0...3600).contains(grace) else {
                throw AuthConfigurationError(field: "expiryGraceSeconds", "must be between 0 and 3600 (got \(grace))")
            }
            configuration.expiryGraceSeconds = grace
        }
        return configuration
    }

    private static func issuer(_ fields: ConfigurationFields) throws(AuthConfigurationError) -> Issuer {
        try fields.onlyKnown(["iss", "audiences", "algorithms", "secret", "publicKeys", "jwksURL"])
        guard let iss = try fields.string("iss"), !iss.isEmpty else { throw fields.error("iss", "is required") }
        let audiences = try fields.strings("audiences") ?? []
        guard !audiences.isEmpty, audiences.allSatisfy({ !$0.isEmpty }) else {
            throw fields.error("audiences", "must list at least one audience (the tokens' aud)")
        }
        var algorithms: [JWSAlgorithm] = []
        for (index, name) in (try fields.strings("algorithms") ?? []).enumerated() {
            guard let algorithm = JWSAlgorithm(rawValue: name) else {
                let why = name.lowercased() == "none" ? "none is never accepted" : "\(name) is not one of \(JWSAlgorithm.names)"
                throw fields.error("algorithms[\(index)]", why)
            }
            algorithms.append(algorithm)
        }
        guard !algorithms.isEmpty else { throw fields.error("algorithms", "must list at least one algorithm") }

        var secret: [UInt8]?
        if let text = try fields.string("secret") {
            guard text.utf8.count >= 32 else {
                throw fields.error("secret", "must be at least 32 bytes (an HMAC key as long as SHA-256's output, RFC 7518 §3.2)")
            }
            guard algorithms.contains(where: \.isHMAC) else {
                throw fields.error("secret", "is used only by HS256, HS384 or HS512, and algorithms allows none of them")
            }
            secret = Array(text.utf8)
        }
        var publicKeys: [PublicKey] = []
        for (index, pem) in (try fields.strings("publicKeys") ?? []).enumerated() {
            let key: PublicKey
            do {
                key = try PublicKey.pem(pem)
            } catch {
                throw fields.error("publicKeys[\(index)]", error.description)
            }
            guard algorithms.contains(where: { $0.scheme?.fits(key.kind) == true }) else {
                throw fields.error("publicKeys[\(index)]", "is \(key.kind), which none of the allowed algorithms uses")
            }
            publicKeys.append(key)
        }
        var jwksURL: HTTPURL?
        if let text = try fields.string("jwksURL") {
            do {
                jwksURL = try HTTPURL(text)
            } catch {
                throw fields.error("jwksURL", error.description)
            }
        }
        if algorithms.contains(where: \.isHMAC), secret == nil {
            throw fields.error("secret", "is required: algorithms allows an HMAC algorithm (HS256/384/512)")
        }
        if algorithms.contains(where: { !$0.isHMAC }), publicKeys.isEmpty, jwksURL == nil {
            throw fields.error("publicKeys", "or jwksURL is required: algorithms allows a public-key algorithm")
        }
        return Issuer(iss: iss, audiences: audiences, algorithms: algorithms, secret: secret, publicKeys: publicKeys, jwksURL: jwksURL)
    }
}

/// A configuration the server cannot take, naming the field (`issuers[1].algorithms[0]`).
public struct AuthConfigurationError: Error, Sendable, CustomStringConvertible {
    public let field: String?
    public let reason: String

    init(field: String?, _ reason: String) {
        self.field = field
        self.reason = reason
    }

    public var description: String { field.map { "\($0): \(reason)" } ?? reason }
}

/// One object of the configuration, read field by field with errors that name the field.
private struct ConfigurationFields {
    let object: [String: Any]
    let path: String

    init(_ object: [String: Any], path: String) {
        self.object = object
        self.path = path
    }

    func error(_ key: String, _ reason: String) -> AuthConfigurationError {
        AuthConfigurationError(field: path.isEmpty ? key : "\(path).\(key)", reason)
    }

    func onlyKnown(_ keys: Set<String>) throws(AuthConfigurationError) {
        if let unknown = object.keys.sorted().first(where: { !keys.contains($0) }) {
            throw error(unknown, "is not a field of this object (known: \(keys.sorted().joined(separator: ", ")))")
        }
    }

    func string(_ key: String) throws(AuthConfigurationError) -> String? {
        guard let value = object[key], !(value is NSNull) else { return nil }
        guard let text = value as? String else { throw error(key, "must be a string") }
        return text
    }

    func integer(_ key: String) throws(AuthConfigurationError) -> Int? {
        guard let value = object[key], !(value is NSNull) else { return nil }
        guard let number = value as? NSNumber, number.doubleValue == number.doubleValue.rounded(), abs(number.doubleValue) < 1e9
        else { throw error(key, "must be a whole number") }
        return number.intValue
    }

    func array(_ key: String) throws(AuthConfigurationError) -> [Any]? {
        guard let value = object[key], !(value is NSNull) else { return nil }
        guard let array = value as? [Any] else { throw error(key, "must be an array") }
        return array
    }

    func strings(_ key: String) throws(AuthConfigurationError) -> [String]? {
        guard let array = try array(key) else { return nil }
        var strings: [String] = []
        for (index, element) in array.enumerated() {
            guard let text = element as? String else { throw error("\(key)[\(index)]", "must be a string") }
            strings.append(text)
        }
        return strings
    }
}
