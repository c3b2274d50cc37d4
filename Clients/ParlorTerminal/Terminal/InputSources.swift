import Dispatch
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a session's input comes from: keys or lines on stdin, and signals.
enum InputSources {
    /// Reads keys from stdin on a thread of its own (a blocking read that the process exit ends); nil
    /// means end of input.
    static func readKeys(_ deliver: @escaping @Sendable ([Key]?) -> Void) {
        let thread = Thread {
            var decoder = KeyDecoder()
            var buffer = [UInt8](repeating: 0, count: 256)
            while true {
                let count = buffer.withUnsafeMutableBytes { raw -> Int in
                    guard let base = raw.baseAddress else { return 0 }
                    return read(STDIN_FILENO, base, raw.count)
                }
                if count < 0 && errno == EINTR { continue }
                if count <= 0 {
                    deliver(nil)
                    return
                }
                deliver(decoder.decode(buffer[0..<count]))
            }
        }
        thread.start()
    }

    /// Reads stdin line by line on a thread of its own; nil means end of input.
    static func readLines(_ deliver: @escaping @Sendable (String?) -> Void) {
        let thread = Thread {
            while let line = readLine(strippingNewline: true) {
                deliver(line)
            }
            deliver(nil)
        }
        thread.start()
    }

    /// Turns signals into calls of `handler` (instead of their default action). Keep the returned
    /// sources alive for as long as the handling should last.
    static func watchSignals(_ signals: [Int32], _ handler: @escaping @Sendable (Int32) -> Void) -> [any DispatchSourceSignal] {
        signals.map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { handler(number) }
            source.resume()
            return source
        }
    }
}

extension InputSources {
    /// Feeds a session's input into its event stream: keys on a terminal (`interactive`), lines from a
    /// script otherwise, and SIGINT, SIGTERM, SIGHUP and SIGWINCH. Keep the returned sources alive for
    /// as long as the session runs.
    static func feed<Game>(
        _ sink: AsyncStream<SessionEvent<Game>>.Continuation, interactive: Bool
    ) -> [any DispatchSourceSignal] {
        if interactive {
            readKeys { keys in
                guard let keys else {
                    sink.yield(.inputEnded)
                    return
                }
                for key in keys { sink.yield(.key(key)) }
            }
        } else {
            readLines { line in
                sink.yield(line.map(SessionEvent.line) ?? .inputEnded)
            }
        }
        return watchSignals([SIGINT, SIGTERM, SIGHUP, SIGWINCH]) { number in
            sink.yield(number == SIGWINCH ? .resize : .signal(number))
        }
    }
}
