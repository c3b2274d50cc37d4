import Foundation
import NIOCore
import NIOPosix
import WebSocketCore

/// A short, stable name for why a connection failed, to count failures by reason. Errno values are
/// named (`ECONNREFUSED`), addresses and ports are left out, so equal causes count together.
enum FailureReason {
    static func of(_ error: any Error) -> String {
        switch error {
        case let failure as LoadFailure:
            return failure.description
        case let error as IOError:
            return "\(errnoName(error.errnoCode)) (\(String(cString: strerror(error.errnoCode))))"
        case let error as NIOConnectionError:
            if let first = error.connectionErrors.first { return "connect: " + of(first.error) }
            if let dns = error.dnsAError ?? error.dnsAAAAError { return "resolve: " + of(dns) }
            return "connect failed"
        case let error as ChannelError:
            switch error {
            case .connectTimeout: return "connect timed out"
            case .ioOnClosedChannel, .alreadyClosed, .eof: return "closed during connect"
            default: return "channel: \(error)"
            }
        case let error as WebSocketClientError:
            if case .handshake(.unexpectedStatus(let code, _, _)) = error { return "upgrade refused: HTTP \(code)" }
            return String(describing: error)
        case let error as WebSocketError:
            return error.description
        case is CancellationError:
            return "cancelled"
        default:
            return String(String(describing: error).prefix(100))
        }
    }

    private static func errnoName(_ code: CInt) -> String {
        switch code {
        case ECONNREFUSED: "ECONNREFUSED"
        case ECONNRESET: "ECONNRESET"
        case EADDRNOTAVAIL: "EADDRNOTAVAIL"
        case EADDRINUSE: "EADDRINUSE"
        case EMFILE: "EMFILE"
        case ENFILE: "ENFILE"
        case ETIMEDOUT: "ETIMEDOUT"
        case EPIPE: "EPIPE"
        case ENOBUFS: "ENOBUFS"
        case EAGAIN: "EAGAIN"
        case EHOSTUNREACH: "EHOSTUNREACH"
        case ENETUNREACH: "ENETUNREACH"
        default: "errno \(code)"
        }
    }
}
