import CSystemTLS

/// Why a TLS context could not be built or a TLS connection failed.
///
/// `description` always says what happened in words and, where OpenSSL gave one, carries OpenSSL's own reason
/// (for example `error:0A00010B:SSL routines::wrong version number`) and, for a certificate that failed
/// verification, the X.509 verify result (for example `self-signed certificate`).
public struct TLSError: Error, Sendable, CustomStringConvertible, Hashable {
    public enum Kind: String, Sendable, Hashable {
        /// A certificate, key or CA file could not be loaded, or a context or handler could not be set up.
        case configuration
        /// The handshake failed (protocol version, cipher, ALPN, garbage that is not TLS, the peer's alert,
        /// or the connection closing before the handshake finished).
        case handshakeFailed
        /// The peer's certificate did not verify (chain, expiry or host name); `verifyResult` says why.
        case certificateVerificationFailed
        /// The handshake did not finish within the configured time.
        case handshakeTimeout
        /// The connection ended (TCP EOF) without the peer's close_notify: the data may have been truncated.
        case uncleanShutdown
        /// A fatal TLS error after the handshake (a bad record, a MAC failure, an unexpected message, an alert).
        case protocolError
        /// More plaintext was written before the handshake finished than the handler buffers.
        case bufferLimitExceeded
    }

    /// What kind of failure this is.
    public var kind: Kind
    /// OpenSSL's error strings, `; `-separated, or Parlor's own words where OpenSSL gave none.
    public var reason: String
    /// For `.certificateVerificationFailed`: OpenSSL's X.509 verify result
    /// (`X509_verify_cert_error_string`), such as `self-signed certificate` or `hostname mismatch`.
    public var verifyResult: String?

    public init(kind: Kind, reason: String, verifyResult: String? = nil) {
        self.kind = kind
        self.reason = reason
        self.verifyResult = verifyResult
    }

    public var description: String {
        let what: String
        switch kind {
        case .configuration: what = "TLS configuration error"
        case .handshakeFailed: what = "TLS handshake failed"
        case .certificateVerificationFailed: what = "TLS certificate verification failed"
        case .handshakeTimeout: what = "TLS handshake timed out"
        case .uncleanShutdown: what = "TLS connection closed without close_notify (possible truncation)"
        case .protocolError: what = "TLS protocol error"
        case .bufferLimitExceeded: what = "TLS write buffer limit exceeded"
        }
        var text = what
        if let verifyResult { text += ": \(verifyResult)" }
        if !reason.isEmpty { text += verifyResult == nil ? ": \(reason)" : " (\(reason))" }
        return text
    }

    /// Builds an error of `kind` from, and clears, the calling thread's OpenSSL error queue; `fallback` is used when
    /// the queue is empty, `context` (if any) is put in front of OpenSSL's text.
    static func fromQueue(_ kind: Kind, context: String? = nil, fallback: String) -> TLSError {
        let queued = takeOpenSSLErrors()
        var reason = queued.isEmpty ? fallback : queued
        if let context { reason = "\(context): \(reason)" }
        return TLSError(kind: kind, reason: reason)
    }
}

/// Events a `TLSHandler` fires inbound (`fireUserInboundEventTriggered`).
public enum TLSEvent: Sendable, Hashable {
    /// The handshake finished. `negotiatedALPN` is the protocol the server selected (nil when none was negotiated);
    /// `serverName` is the SNI name the client asked for (on the server) or sent (on the client), nil when none;
    /// `protocolVersion` is OpenSSL's name for the version, `TLSv1.2` or `TLSv1.3`.
    case handshakeCompleted(negotiatedALPN: String?, serverName: String?, protocolVersion: String)
}

/// The text of every error on this thread's OpenSSL error queue (which it clears), `; `-separated; "" when empty.
func takeOpenSSLErrors() -> String {
    withUnsafeTemporaryAllocation(of: CChar.self, capacity: 1024) { buffer -> String in
        let count = parlor_tls_take_errors(buffer.baseAddress, buffer.count)
        guard count > 0, let base = buffer.baseAddress else { return "" }
        return String(cString: base)
    }
}
