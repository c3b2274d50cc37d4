import NIOCore
import NIOPosix
import SystemTLS
import WebSocketCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns why a connection failed or ended into a clause a person can read
/// ("nothing is listening at localhost:8080 (connection refused)").
enum ConnectionFailure {
    static func describe(_ error: any Error, server: ServerAddress) -> String {
        let place = "\(server.host):\(server.port)"
        switch error {
        case let error as NIOConnectionError:
            if error.dnsAError != nil || error.dnsAAAAError != nil, error.connectionErrors.isEmpty {
                return "the host name \(server.host) could not be resolved"
            }
            if let first = error.connectionErrors.first {
                return describe(first.error, server: server)
            }
            return "could not connect to \(place)"
        case let error as IOError:
            switch error.errnoCode {
            case ECONNREFUSED: return "nothing is listening at \(place) (connection refused)"
            case ECONNRESET: return "the connection to \(place) was reset"
            case ENETUNREACH, EHOSTUNREACH: return "\(place) cannot be reached from here"
            case ETIMEDOUT: return "connecting to \(place) timed out"
            default: return "could not connect to \(place) (\(String(cString: strerror(error.errnoCode))))"
            }
        case let error as ChannelError:
            switch error {
            case .connectTimeout: return "connecting to \(place) timed out"
            case .ioOnClosedChannel, .alreadyClosed, .eof, .outputClosed: return "the connection to \(place) closed"
            default: return "the connection to \(place) failed (\(error))"
            }
        case let error as WebSocketClientError:
            switch error {
            case .invalidURL(let why): return "the server address is not usable (\(why))"
            case .handshake(.unexpectedStatus(let code, let reason, _)):
                return "\(server.url) did not accept a WebSocket (it answered \(code) \(reason))"
            case .handshake(let handshake): return "\(handshake.description) (\(place))"
            }
        case let error as WebSocketHandshakeError:
            return "\(error.description) (\(place))"
        case let error as TLSError:
            return "\(place) could not be reached securely (\(error.description))"
        case let error as WebSocketError:
            return "the connection to \(place) failed (\(error))"
        case let error as ParlorClientError:
            return error.description
        default:
            return "the connection to \(place) failed (\(error))"
        }
    }

    /// Why an open connection ended.
    static func describe(_ status: WebSocketCloseStatus) -> String {
        switch status.code {
        case .normalClosure: "the server closed the connection"
        case .goingAway: "the server is restarting or going away"
        case .abnormalClosure: "the connection dropped"
        default: "the server closed the connection (\(status))"
        }
    }
}
