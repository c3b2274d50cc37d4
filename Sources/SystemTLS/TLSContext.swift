import CSystemTLS
import NIOCore
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// How a TLS server is set up.
///
/// The protocol policy is fixed (see `docs/CONFORMANCE.md`, section TLS): TLS 1.2 and 1.3 only; for TLS 1.2 only
/// ECDHE with AES-GCM or ChaCha20-Poly1305, in the server's order (a client that prefers ChaCha20 gets it);
/// TLS 1.3 with OpenSSL's default suites; groups X25519, P-256, P-384; OpenSSL security level 2; no compression;
/// no renegotiation; no session resumption (no tickets, no session cache); ALPN selects `http/1.1`.
public struct TLSServerConfiguration: Sendable {
    /// A PEM file with the server certificate first, followed by any intermediate certificates.
    public var certificateChainPath: String
    /// A PEM file with the (unencrypted) private key for the first certificate in `certificateChainPath`.
    public var privateKeyPath: String
    /// How long a connection may take to finish its handshake before it is closed with `.handshakeTimeout`;
    /// nil for no limit. Default: 10 seconds.
    public var handshakeTimeout: TimeAmount?
    /// How long closing waits for the close_notify alert to be written before closing the connection anyway.
    /// Default: 5 seconds.
    public var shutdownTimeout: TimeAmount
    /// The most plaintext (bytes) the handler buffers for writes issued before the handshake finishes; a write beyond
    /// it fails with `.bufferLimitExceeded`. Default: 1 MiB.
    public var maximumBufferedHandshakeWrites: Int

    public init(
        certificateChainPath: String,
        privateKeyPath: String,
        handshakeTimeout: TimeAmount? = .seconds(10),
        shutdownTimeout: TimeAmount = .seconds(5),
        maximumBufferedHandshakeWrites: Int = 1 << 20
    ) {
        self.certificateChainPath = certificateChainPath
        self.privateKeyPath = privateKeyPath
        self.handshakeTimeout = handshakeTimeout
        self.shutdownTimeout = shutdownTimeout
        self.maximumBufferedHandshakeWrites = maximumBufferedHandshakeWrites
    }
}

/// How a TLS client is set up. The protocol policy is the server's (TLS 1.2–1.3, ECDHE + AEAD only); the client
/// offers ALPN `http/1.1`.
public struct TLSClientConfiguration: Sendable {
    /// Where the certificates trusted as roots come from.
    public enum TrustRoots: Sendable {
        /// The system CA store (OpenSSL's default verify paths, on Debian `/etc/ssl/certs`).
        case system
        /// A PEM file of CA certificates, trusted instead of the system store.
        case file(String)
    }

    /// Default: the system CA store.
    public var trustRoots: TrustRoots = .system
    /// Whether to verify the server's certificate chain and that it names the host (`SSL_set1_host`, or the IP
    /// address for an IP literal). Default: true. When false, any certificate is accepted.
    public var verifyPeer: Bool = true
    /// As `TLSServerConfiguration.handshakeTimeout`. Default: 10 seconds.
    public var handshakeTimeout: TimeAmount? = .seconds(10)
    /// As `TLSServerConfiguration.shutdownTimeout`. Default: 5 seconds.
    public var shutdownTimeout: TimeAmount = .seconds(5)
    /// As `TLSServerConfiguration.maximumBufferedHandshakeWrites`. Default: 1 MiB.
    public var maximumBufferedHandshakeWrites: Int = 1 << 20

    public init(trustRoots: TrustRoots = .system, verifyPeer: Bool = true) {
        self.trustRoots = trustRoots
        self.verifyPeer = verifyPeer
    }
}

/// Owns an `SSL_CTX` that is fully configured before anyone else sees it.
///
/// `@unchecked Sendable` is sound because: the context is configured only inside the initialiser of
/// `TLSServerContext` / `TLSClientContext`, before the box is shared, and nothing mutates it afterwards; OpenSSL
/// documents a configured `SSL_CTX` as safe to use from many threads at once for `SSL_new` (its reference count and
/// the few internal caches are locked); and it is freed only in `deinit`, when no Swift reference remains (each
/// `SSL` made from it also holds its own OpenSSL reference).
final class SSLContextBox: @unchecked Sendable {
    let pointer: OpaquePointer

    init(_ pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit {
        SSL_CTX_free(pointer)
    }
}

/// Handler-level settings shared by every connection of a context.
struct TLSHandlerSettings: Sendable {
    var handshakeTimeout: TimeAmount?
    var shutdownTimeout: TimeAmount
    var maximumBufferedHandshakeWrites: Int
}

/// A server's certificate, key and policy, loaded once and shared by every connection (any event loop).
/// `reload()` reads the certificate and key files again (a renewed certificate): connections accepted
/// afterwards use the new pair, those already open keep the one they started with.
public final class TLSServerContext: Sendable {
    public let configuration: TLSServerConfiguration
    private let current: Mutex<SSLContextBox>
    let settings: TLSHandlerSettings

    /// Loads the PEM certificate chain and private key and checks that they belong together.
    /// - Throws: `TLSError` of kind `.configuration` naming the file that could not be used, with OpenSSL's reason.
    public init(configuration: TLSServerConfiguration) throws {
        self.current = Mutex(try Self.load(configuration))
        self.configuration = configuration
        self.settings = TLSHandlerSettings(
            handshakeTimeout: configuration.handshakeTimeout,
            shutdownTimeout: configuration.shutdownTimeout,
            maximumBufferedHandshakeWrites: configuration.maximumBufferedHandshakeWrites)
    }

    /// Reads the certificate chain and key files again. A pair that cannot be used (unreadable, not PEM,
    /// a key that does not match) throws, as `init` does, and the pair in use stays.
    public func reload() throws {
        let fresh = try Self.load(configuration)
        current.withLock { $0 = fresh }
    }

    private static func load(_ configuration: TLSServerConfiguration) throws -> SSLContextBox {
        precondition(OpenSSLLibrary.initialised, "OpenSSL failed to initialise")
        ERR_clear_error()
        guard let ctx = SSL_CTX_new(TLS_server_method()) else {
            throw TLSError.fromQueue(.configuration, fallback: "SSL_CTX_new failed")
        }
        let box = SSLContextBox(ctx)
        guard parlor_tls_ctx_apply_policy(ctx, 1) == 1 else {
            throw TLSError.fromQueue(.configuration, context: "cannot apply the TLS policy", fallback: "unknown error")
        }
        let certPath = configuration.certificateChainPath
        let keyPath = configuration.privateKeyPath
        guard SSL_CTX_use_certificate_chain_file(ctx, certPath) == 1 else {
            throw TLSError.fromQueue(
                .configuration, context: "cannot load the certificate chain from '\(certPath)'",
                fallback: "no PEM certificate found")
        }
        switch parlor_tls_ctx_load_private_key(ctx, keyPath) {
        case 1:
            break
        case -1:
            throw TLSError.fromQueue(
                .configuration,
                context: "the private key in '\(keyPath)' does not match the certificate in '\(certPath)'",
                fallback: "key values mismatch")
        default:
            throw TLSError.fromQueue(
                .configuration,
                context: "cannot load the private key from '\(keyPath)' (it must be an unencrypted PEM key)",
                fallback: "no PEM private key found")
        }
        parlor_tls_ctx_set_server_alpn_http11(ctx)
        ERR_clear_error()
        return box
    }

    /// A handler for one accepted connection, with the pair loaded last. Add it first in the child
    /// channel's pipeline.
    public func makeServerHandler() -> TLSHandler {
        TLSHandler(context: current.withLock { $0 }, role: .server, settings: settings)
    }
}

/// A client's trust roots and policy, loaded once and shared by every connection (any event loop).
public final class TLSClientContext: Sendable {
    public let configuration: TLSClientConfiguration
    let box: SSLContextBox
    let settings: TLSHandlerSettings

    /// - Throws: `TLSError` of kind `.configuration`, naming the CA file when it cannot be loaded.
    public init(configuration: TLSClientConfiguration) throws {
        precondition(OpenSSLLibrary.initialised, "OpenSSL failed to initialise")
        ERR_clear_error()
        guard let ctx = SSL_CTX_new(TLS_client_method()) else {
            throw TLSError.fromQueue(.configuration, fallback: "SSL_CTX_new failed")
        }
        let box = SSLContextBox(ctx)
        guard parlor_tls_ctx_apply_policy(ctx, 0) == 1 else {
            throw TLSError.fromQueue(.configuration, context: "cannot apply the TLS policy", fallback: "unknown error")
        }
        switch configuration.trustRoots {
        case .system:
            guard SSL_CTX_set_default_verify_paths(ctx) == 1 else {
                throw TLSError.fromQueue(
                    .configuration, context: "cannot use the system CA store", fallback: "unknown error")
            }
        case .file(let path):
            guard SSL_CTX_load_verify_locations(ctx, path, nil) == 1 else {
                throw TLSError.fromQueue(
                    .configuration, context: "cannot load CA certificates from '\(path)'",
                    fallback: "no PEM certificate found")
            }
        }
        SSL_CTX_set_verify(ctx, configuration.verifyPeer ? SSL_VERIFY_PEER : SSL_VERIFY_NONE, nil)
        guard parlor_tls_ctx_set_client_alpn_http11(ctx) == 1 else {
            throw TLSError.fromQueue(.configuration, context: "cannot set ALPN", fallback: "unknown error")
        }
        ERR_clear_error()
        self.configuration = configuration
        self.box = box
        self.settings = TLSHandlerSettings(
            handshakeTimeout: configuration.handshakeTimeout,
            shutdownTimeout: configuration.shutdownTimeout,
            maximumBufferedHandshakeWrites: configuration.maximumBufferedHandshakeWrites)
    }

    /// A handler for one outgoing connection to `serverHostname` (a DNS name or an IP literal, `[::1]` allowed).
    ///
    /// A DNS name is sent as SNI (an IP literal is not, per RFC 6066) and, when `verifyPeer` is on, must appear in
    /// the certificate's subjectAltName (an IP literal must appear as an IP SAN).
    /// - Throws: `TLSError` of kind `.configuration` when `verifyPeer` is on and `serverHostname` is nil (there would
    ///   be nothing to check the certificate against), or when the name is not usable.
    public func makeClientHandler(serverHostname: String?) throws -> TLSHandler {
        let handler = TLSHandler(context: box, role: .client, settings: settings)
        guard let rawName = serverHostname else {
            if configuration.verifyPeer {
                throw TLSError(
                    kind: .configuration,
                    reason: "a server host name is needed to verify the server's certificate (or set verifyPeer to false)")
            }
            return handler
        }
        var name = rawName
        if name.hasPrefix("["), name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
        if name.hasSuffix(".") { name.removeLast() }
        guard !name.isEmpty, name.utf8.count <= 253, !name.utf8.contains(0) else {
            throw TLSError(kind: .configuration, reason: "'\(rawName)' is not a usable server host name")
        }
        ERR_clear_error()
        if Self.isIPAddress(name) {
            if configuration.verifyPeer, parlor_tls_ssl_verify_ip(handler.ssl, name) != 1 {
                throw TLSError.fromQueue(
                    .configuration, context: "cannot verify against IP address '\(name)'", fallback: "invalid address")
            }
        } else {
            guard parlor_tls_ssl_set_sni(handler.ssl, name) == 1 else {
                throw TLSError.fromQueue(
                    .configuration, context: "cannot send '\(name)' as SNI", fallback: "invalid host name")
            }
            if configuration.verifyPeer, parlor_tls_ssl_verify_host(handler.ssl, name) != 1 {
                throw TLSError.fromQueue(
                    .configuration, context: "cannot verify against host name '\(name)'", fallback: "invalid host name")
            }
        }
        return handler
    }

    static func isIPAddress(_ text: String) -> Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, text, &v4) == 1 || inet_pton(AF_INET6, text, &v6) == 1
    }
}
