import Foundation
import ParlorTestSupport
import Testing

/// The photo quiz screen, driven for real in tmux as the README tells it: Ann creates a quiz and uploads
/// a photo taken in Paris with `parlor quiz upload`, Bo joins and Cy watches; the photo fills in on every
/// screen as its tiles appear, with the countdown; Bo guesses by typing a place's name, and every screen
/// shows the reveal with his distance and points, then the standings.
@Suite("parlor quiz in tmux", .serialized, .timeLimit(.minutes(3)), .enabled(if: Tmux.isInstalled, "needs tmux (scripts/setup.sh --test)"))
struct TerminalQuizTmuxTests {
    /// The places the server names answers from and the client looks typed names up in.
    static let placesCSV = """
        lat,lon,name,admin1,admin2,cc
        48.85341,2.3488,Paris,Ile-de-France,Paris,FR
        45.74846,4.84671,Lyon,Auvergne-Rhone-Alpes,,FR
        35.02107,135.75385,Kyoto,Kyoto,,JP

        """

    @Test("Ann hosts a quiz of her photo from Paris; Bo guesses Lyon in another terminal while Cy watches")
    func hostPlayerAndWatcher() async throws {
        let home = try ScratchDirectory("quiz-tmux")
        let places = home.url.appendingPathComponent("places.csv").path
        try Self.placesCSV.write(toFile: places, atomically: true, encoding: .utf8)
        let jpeg = try await TestPhotos.make(.at(48.8566, 2.3522, taken: "2024:06:14 09:30:00"))
        try Data(jpeg).write(to: home.url.appendingPathComponent("paris.jpg"))
        let server = try await TerminalServer.start(extraArguments: ["--no-persist", "--places", places])
        let tmux = Tmux()
        do {
            let parlor = BuiltProducts.url("parlor").path
            try await tmux.openShells(["ann", "bo", "cy", "up"], home: home.path, height: 40)
            let connect = "--server \(server.url) --places \(places)"
            try await tmux.typeLine("ann", "\(parlor) quiz create --name Ann --reveal-speed slow --timer 120 --length 5 --profile ann \(connect)")
            let summary = try await tmux.waitFor("ann", "Quiz [A-Z0-9]{5} · slow reveal · 120 s to guess · 5 photos")
            let code = String(try #require(summary.firstMatch(of: /Quiz ([A-Z0-9]{5})/)?.1))
            try await tmux.waitFor("ann", "█")
            try await tmux.waitFor("ann", "1 player · 0 photos in 0 albums · You start the quiz: type /start and press Enter.")

            // The upload goes up from another terminal as Ann; the quiz screen counts it.
            try await tmux.typeLine("up", "cd \(home.path)")
            try await tmux.typeLine("up", "\(parlor) quiz upload \(code.lowercased()) paris.jpg --album Trip --profile ann --server \(server.url)")
            try await tmux.waitFor("up", "^Uploaded paris\\.jpg to quiz \(code) \\(album Trip\\)\\.")
            try await tmux.waitFor("ann", "Ann \\(host, you\\) · 1 photo")
            try await tmux.typeLine("up", "\(parlor) quiz upload \(code) /etc/hostname --profile ann --server \(server.url); echo status $?")
            try await tmux.waitFor("up", "/etc/hostname: .*JPEG")
            try await tmux.waitFor("up", "^status 1")

            try await tmux.typeLine("bo", "\(parlor) quiz join \(code) --name Bo --profile bo \(connect)")
            try await tmux.waitFor("bo", "2 players · 1 photo in 1 album · Waiting for Ann to start.")
            try await tmux.typeLine("cy", "\(parlor) quiz watch \(code) --profile cy \(connect)")
            try await tmux.waitFor("cy", "Waiting for Ann to start. · you are watching")

            // The photo fills in tile by tile, in colour, with the time left.
            try await tmux.typeLine("ann", "/start")
            try await tmux.waitFor("bo", "Photo 1 of 1 · Ann's photo · [0-9]+ of 36 tiles · [12]:[0-9]{2} to guess")
            try await tmux.waitFor("ann", "Photo 1 of 1 · your photo")
            try await tmux.waitFor("bo", "▀")
            try await tmux.waitFor("cy", "▀")
            try await tmux.waitFor("bo", "^  where\\? > ")
            try await tmux.typeLine("ann", "Lyon")
            try await tmux.waitFor("ann", "This is your photo: the others guess it\\.")
            try await tmux.typeLine("bo", "Atlantis")
            try await tmux.waitFor("bo", "No place called Atlantis is known")

            // Bo's guess by name is the last one due: the photo is revealed on every screen.
            try await tmux.typeLine("bo", "lyon, fr")
            for pane in ["ann", "bo", "cy"] {
                try await tmux.waitFor(pane, "Photo 1 of 1 · Paris, France · Jun 14, 2024")
                try await tmux.waitFor(pane, "Taken at 48\\.8566°N, 2\\.3522°E")
                try await tmux.waitFor(pane, "Bo +393 km away · 3842 points")
            }
            try await tmux.typeLine("ann", "/next")
            for pane in ["ann", "bo", "cy"] {
                try await tmux.waitFor(pane, "The quiz is over\\.")
                try await tmux.waitFor(pane, "1\\. Bo · 3842 points")
            }

            // Esc: back to the shell, the terminal as it was.
            try await tmux.press("bo", "Escape")
            try await tmux.waitFor("bo", "^bo\\$")
            try await tmux.expectTerminalRestored("bo")
            try await tmux.press("cy", "C-c")
            try await tmux.waitFor("cy", "^cy\\$")
        } catch {
            await tmux.tearDown(server, home)
            throw error
        }
        await tmux.tearDown(server, home)
    }
}
