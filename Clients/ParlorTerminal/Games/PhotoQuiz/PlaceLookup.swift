import Foundation
import ParlorPlaces
import Synchronization

/// GeoNames' places for typed guesses, read in the background once a quiz session starts (reading
/// them takes a moment), so the screen is up at once; until they are in, a guess must be a position.
public final class PlaceLookup: Sendable, Equatable {
    private let loaded = Mutex<Places?>(nil)
    private let stateText = Mutex<String>("The places are still loading")

    /// Starts reading `path`; nil or a missing file leaves no places (positions only).
    public init(path: String?) {
        guard let path else {
            stateText.withLock { $0 = "There are no places to look names up in (--places none)" }
            return
        }
        guard FileManager.default.isReadableFile(atPath: path) else {
            stateText.withLock { $0 = "There are no places at \(path) (run scripts/setup.sh or pass --places FILE)" }
            return
        }
        Thread.detachNewThread { [self] in
            do {
                let places = try Places.load(path: path)
                loaded.withLock { $0 = places }
            } catch {
                stateText.withLock { $0 = "The places at \(path) could not be read (\(error))" }
            }
        }
    }

    /// Places already loaded (tests).
    public init(_ places: Places) {
        loaded.withLock { $0 = places }
    }

    public var places: Places? { loaded.withLock { $0 } }

    /// Why there are no places, as the start of a sentence.
    public var unavailableReason: String { stateText.withLock { $0 } }

    public func resolve(_ text: String) -> Result<QuizGuessText.Resolved, ScriptCommandError> {
        QuizGuessText.resolve(text, places: places, placesState: unavailableReason)
    }

    public static func == (lhs: PlaceLookup, rhs: PlaceLookup) -> Bool { lhs === rhs }
}
