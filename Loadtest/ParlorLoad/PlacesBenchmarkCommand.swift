import ArgumentParser
import Foundation
import ParlorPlaces
import ParlorRules

/// What offline reverse geocoding costs the server: reading and indexing GeoNames' places once at
/// start-up, and each reveal's lookup of the nearest place — through the k-d tree, and, for scale, by
/// scanning every place. Costs are this thread's CPU time, so other work on a shared machine does not
/// count in them (wall-clock rates are printed beside them).
struct PlacesBenchmarkCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "places", abstract: "Measure reverse-geocoding lookups in GeoNames' places (no network).")

    @Option(help: ArgumentHelp("GeoNames' places (cities1000), as the server reads them.", valueName: "file"))
    var places: String = Places.defaultPath

    @Option(help: "Seconds to spend on each measurement.")
    var seconds: Double = 1.0

    func validate() throws {
        guard seconds > 0, seconds <= 600 else { throw ValidationError("--seconds must be between 0 and 600 (got \(seconds)).") }
    }

    func run() throws {
        let cpuStart = CPUTimedLoop.threadCPUSeconds()
        let wallStart = ContinuousClock.now
        let loaded = try Places.load(path: places)
        let loadWall = (ContinuousClock.now - wallStart) / .seconds(1)
        print(String(format: "read and index %d places: %.2f s CPU (%.2f s wall)", loaded.count, CPUTimedLoop.threadCPUSeconds() - cpuStart, loadWall))

        // Probes: anywhere on the globe (mostly ocean), and near places (where photos are taken).
        var generator = SeededGenerator(seed: 2026)
        let anywhere = (0..<4096).map { _ in
            GeoCoordinate(latitude: Double(generator.index(below: 180_000)) / 1000 - 90, longitude: Double(generator.index(below: 360_000)) / 1000 - 180)!
        }
        let all = loaded.index.places
        let nearPlaces = (0..<4096).map { _ in
            let place = all[generator.index(below: all.count)]
            let latitude = min(max(place.latitude + Double(generator.index(below: 200)) / 1000 - 0.1, -90), 90)
            let longitude = min(max(place.longitude + Double(generator.index(below: 200)) / 1000 - 0.1, -180), 180)
            return GeoCoordinate(latitude: latitude, longitude: longitude)!
        }

        print("measurement                               ops/s     µs/op  cpu µs/op")
        var next = 0
        measure("nearest place, anywhere (k-d tree)") {
            next = (next + 1) & 4095
            _ = loaded.index.nearest(latitude: anywhere[next].latitude, longitude: anywhere[next].longitude)
        }
        measure("nearest place, near a town (k-d tree)") {
            next = (next + 1) & 4095
            _ = loaded.index.nearest(latitude: nearPlaces[next].latitude, longitude: nearPlaces[next].longitude)
        }
        measure("a reveal's name (city, country)") {
            next = (next + 1) & 4095
            _ = loaded.name(at: nearPlaces[next])
        }
        measure("nearest place by scanning every place", batch: 1) {
            next = (next + 1) & 4095
            let target = nearPlaces[next]
            for place in all {
                if let other = GeoCoordinate(latitude: place.latitude, longitude: place.longitude) {
                    _ = target.distanceKm(to: other)
                }
            }
        }
    }

    /// Runs `body` for `seconds` and prints its rate and its CPU time per operation (`CPUTimedLoop`).
    private func measure(_ name: String, batch: Int = 100, _ body: () -> Void) {
        let loop = CPUTimedLoop(seconds: seconds, batch: batch, body)
        print(
            name.padding(toLength: 40, withPad: " ", startingAt: 0) + String(format: "%10.0f", loop.perSecond) + " "
                + String(format: "%9.2f", 1e6 / loop.perSecond) + " " + String(format: "%9.2f", loop.cpuMicroseconds))
    }
}
