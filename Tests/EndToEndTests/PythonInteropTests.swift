import Foundation
import ParlorTestSupport
import Testing

/// A WebSocket implementation we did not write (Python `websockets`, installed by `scripts/setup.sh
/// --test`) plays a whole rummy room and a darts match against the real `parlor-server`, with and without
/// compression, and a photo quiz with photos uploaded over HTTP.
@Suite(.serialized) struct PythonInteropTests {
    @Test(arguments: ["deflate", "plain"])
    func pythonWebsocketsPlaysARoomToSettlement(mode: String) async throws {
        let server = try await ServerProcess.start(["--no-persist"])
        let (status, output) = try await ScriptRunner.run("python3", "rummy_websockets.py", arguments: [server.url, mode])
        await server.stop()
        #expect(status == 0, "\(output)")
        #expect(output.contains(#""ok": true"#), "\(output)")
        #expect(output.contains("[1250, 3375]"), "\(output)")
    }

    @Test(arguments: ["deflate", "plain"])
    func pythonWebsocketsPlaysADartsMatchWithASpectator(mode: String) async throws {
        let server = try await ServerProcess.start(["--no-persist"])
        let (status, output) = try await ScriptRunner.run("python3", "darts_websockets.py", arguments: [server.url, mode])
        await server.stop()
        #expect(status == 0, "\(output)")
        #expect(output.contains(#""ok": true"#) && output.contains(#""average": 167"#), "\(output)")
    }

    @Test func pythonWebsocketsJoinsPrivateAndLockedGamesOnlyAsAllowed() async throws {
        let server = try await ServerProcess.start(["--no-persist"])
        let (status, output) = try await ScriptRunner.run("python3", "access_websockets.py", arguments: [server.url])
        await server.stop()
        #expect(status == 0, "\(output)")
        #expect(output.contains(#""ok": true"#) && output.contains(#""kind": "rummy""#), "\(output)")
    }

    @Test func pythonWebsocketsPlaysAPhotoQuizToTheStandings() async throws {
        // The places the script's photos were taken at, in reverse_geocoder's CSV form.
        let places = FileManager.default.temporaryDirectory.appendingPathComponent("parlor-places-\(UUID().uuidString).csv").path
        let csv = "lat,lon,name,admin1,admin2,cc\n48.85341,2.3488,Paris,Ile-de-France,Paris,FR\n-33.86785,151.20732,Sydney,New South Wales,,AU\n"
        try csv.write(toFile: places, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: places) }
        // The photos, as quiz_websockets.py's PHOTOS says they were taken.
        let photos = FileManager.default.temporaryDirectory.appendingPathComponent("parlor-quiz-photos-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: photos) }
        let jpegs = try await TestPhotos.make([
            .at(48.8566, 2.3522, taken: "2024:06:14 09:30:00"), .at(-33.8688, 151.2093, taken: nil), TestPhotos.Spec(),
        ])
        for (name, jpeg) in zip(["paris", "sydney", "nogps"], jpegs) {
            try Data(jpeg).write(to: photos.appendingPathComponent("\(name).jpg"))
        }
        let server = try await ServerProcess.start(["--no-persist", "--places", places])
        let (status, output) = try await ScriptRunner.run("python3", "quiz_websockets.py", arguments: [server.url, photos.path])
        await server.stop()
        #expect(status == 0, "\(output)")
        #expect(output.contains(#""ok": true"#) && output.contains(#"[[1, "Cy", 5000], [2, "Bo", 3972], [3, "Ann", 3100]]"#), "\(output)")
    }
}
