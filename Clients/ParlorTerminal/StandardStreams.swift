#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Unbuffered writes to stdout and stderr: a script reading our output line by line sees each line as
/// soon as it is written.
enum StandardStreams {
    static func printLine(_ text: String) {
        writeAll(STDOUT_FILENO, text + "\n")
    }

    static func printError(_ text: String) {
        writeAll(STDERR_FILENO, text + "\n")
    }

    static func write(_ text: String) {
        writeAll(STDOUT_FILENO, text)
    }

    private static func writeAll(_ fd: Int32, _ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                return systemWrite(fd, base + offset, buffer.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                return
            }
            offset += written
        }
    }
}

#if canImport(Glibc)
private let systemWrite = Glibc.write
#elseif canImport(Darwin)
private let systemWrite = Darwin.write
#endif
