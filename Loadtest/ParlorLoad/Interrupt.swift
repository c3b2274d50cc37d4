import Dispatch
import Foundation

/// Ctrl-C ends a measurement early and still reports what was measured; a second Ctrl-C quits at once.
enum Interrupt {
    /// Opens on the first SIGINT.
    static let requested = Gate<Bool>()

    /// Kept for the life of the process; written once, before any task reads it.
    nonisolated(unsafe) private static var source: (any DispatchSourceSignal)?

    static func install() {
        signal(SIGINT, SIG_IGN)
        let signalSource = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        signalSource.setEventHandler {
            guard requested.open(true) else { exit(130) }
            FileHandle.standardError.write(
                Data("parlor-load: stopping early; the report follows (Ctrl-C again to quit at once)\n".utf8))
        }
        signalSource.resume()
        source = signalSource
    }

    /// Sleeps until `deadline`, or less if Ctrl-C is pressed.
    static func sleep(until deadline: ContinuousClock.Instant) async {
        let remaining = deadline - .now
        guard remaining > .zero else { return }
        _ = await requested.wait(timeout: remaining)
    }
}
