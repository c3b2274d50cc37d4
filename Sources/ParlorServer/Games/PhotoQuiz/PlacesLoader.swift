import Foundation
import Logging
import ParlorPlaces

/// GeoNames' places, read and indexed in the background from the moment the server starts, so the
/// server is listening at once; the first upload that needs a place waits for them.
final class PlacesLoader: Sendable {
    private let loading: Task<Places?, Never>

    /// A missing file is known at once (and warned about); one that cannot be read is warned about when
    /// the background read finds it out.
    init(path: String?, logger: Logger) {
        guard let path else {
            logger.notice("No places data (--places none): reveals show coordinates only, without a city or country.")
            loading = Task { nil }
            return
        }
        guard FileManager.default.isReadableFile(atPath: path) else {
            logger.warning(
                "No places data: reveals show coordinates only, without a city or country. Run scripts/setup.sh or pass --places FILE.",
                metadata: ["reason": "\(path) is missing or unreadable"])
            loading = Task { nil }
            return
        }
        loading = Task.detached(priority: .utility) {
            do {
                let places = try Places.load(path: path)
                logger.info("Places loaded", metadata: ["file": "\(path)", "places": "\(places.count)", "skippedLines": "\(places.skippedLines)"])
                return places
            } catch {
                logger.warning(
                    "No places data: reveals show coordinates only, without a city or country. Run scripts/setup.sh or pass --places FILE.",
                    metadata: ["reason": "\(error)"])
                return nil
            }
        }
    }

    /// The places once read; nil when there are none.
    func places() async -> Places? { await loading.value }
}
