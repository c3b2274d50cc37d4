import Foundation
import NIOConcurrencyHelpers

/// The once-a-second progress line on stderr: on a terminal it is redrawn in place (`\r`, then the
/// rest of the old line erased), so a run shows one line that changes; piped or redirected, each second
/// is a line of its own, so a log keeps the whole run.
final class ProgressLine: Sendable {
    static let standardError = ProgressLine(inPlace: isatty(STDERR_FILENO) == 1) { text in
        FileHandle.standardError.write(Data(text.utf8))
    }

    private let inPlace: Bool
    private let write: @Sendable (String) -> Void
    /// An in-place line is showing and has no newline after it yet.
    private let open = NIOLockedValueBox(false)

    init(inPlace: Bool, write: @escaping @Sendable (String) -> Void) {
        self.inPlace = inPlace
        self.write = write
    }

    /// This second's line.
    func update(_ line: String) {
        open.withLockedValue { open in
            if inPlace {
                write("\r" + line + "\u{1B}[K")
                open = true
            } else {
                write(line + "\n")
            }
        }
    }

    /// A message of its own (a warning, the run's plan): on a line below the progress line, if one shows.
    func message(_ line: String) {
        open.withLockedValue { open in
            write((open ? "\n" : "") + line + "\n")
            open = false
        }
    }

    /// The run is over: the last progress line stays, and what follows starts below it.
    func end() {
        open.withLockedValue { open in
            if open { write("\n") }
            open = false
        }
    }
}
