import CSystemTLS

/// An error reported by the system OpenSSL, with the library's own description of the cause.
public struct OpenSSLError: Error, Sendable, CustomStringConvertible {
    /// What Parlor was doing when OpenSSL failed.
    public var operation: String
    /// OpenSSL's error string (from its error queue), or an empty string when the queue was empty.
    public var reason: String

    public init(operation: String, reason: String) {
        self.operation = operation
        self.reason = reason
    }

    /// Builds an error from, and clears, the calling thread's OpenSSL error queue.
    public static func fromQueue(operation: String) -> OpenSSLError {
        var buffer = [CChar](repeating: 0, count: 256)
        let code = buffer.withUnsafeMutableBufferPointer { parlor_take_error($0.baseAddress, $0.count) }
        let text = code == 0 ? "" : String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return OpenSSLError(operation: operation, reason: text)
    }

    public var description: String {
        reason.isEmpty ? "\(operation) failed" : "\(operation) failed: \(reason)"
    }
}

enum OpenSSLLibrary {
    /// Initialises OpenSSL exactly once per process.
    static let initialised: Bool = parlor_openssl_init() == 1
}
