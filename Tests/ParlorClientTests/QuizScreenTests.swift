import Foundation
import ParlorClient
import ParlorRules
@testable import ParlorTerminal
import ParlorWire
import Testing

/// The photo quiz screen as text (and, for the picture, colours): while players gather, while a photo
/// fills in with the countdown, at the reveal, at the end, and what typing a guess does.
@Suite("Photo quiz screen")
struct QuizScreenTests {
    @Test("While players gather: the code in block letters, who uploaded what, the host's keys")
    func waiting() throws {
        let view = try QuizFixtures.view("waiting")
        let lines = QuizScreen.text(QuizFixtures.screen(view, me: QuizFixtures.ann), width: 90, height: 30)
        #expect(lines.count == 30 && lines.allSatisfy { TextWidth.of($0) <= 90 })
        #expect(lines.contains { $0.contains("█") })
        #expect(lines.contains("  Quiz QWERT · slow reveal · 20 s to guess · 5 photos"))
        #expect(lines.contains("  3 players · 2 photos in 1 album · You start the quiz: type /start and press Enter."))
        #expect(lines.contains("  Ann (host, you) · 1 photo") && lines.contains("  Cy · 0 photos"))
        #expect(lines.contains("  Add photos: parlor quiz upload QWERT FILE…"))
        #expect(lines.last == "  [/start] start  [/leave] leave  [Esc] quit")
        let bo = QuizScreen.text(QuizFixtures.screen(view), width: 90, height: 12)
        #expect(bo.contains("  3 players · 2 photos in 1 album · Waiting for Ann to start."))
        #expect(!bo.contains { $0.contains("█") }, "no room for the big code")
    }

    @Test("While a photo is revealed: whose it is, the tiles out, the countdown on the server's clock, the picture in colour")
    func revealing() throws {
        let state = QuizFixtures.screen(try QuizFixtures.view("revealing", guessed: true))
        // Sent at 09:30:03 server time, read at 09:30:05 here (2 s ahead), drawn a second later: 16 s of 20 left.
        #expect(state.millisecondsLeft == 16_000)
        let rendered = QuizScreen.render(state, width: 90, height: 30)
        let lines = rendered.map(\.text)
        #expect(lines.contains("  Photo 1 of 2 · Ann's photo · 2 of 36 tiles · 0:16 to guess"))
        #expect(lines.contains("  · Ann 0  ✓ Bo 0  … Cy 0"))
        #expect(lines.contains { $0.hasPrefix("  where? > ") })
        #expect(lines.last == "  [Enter] guess: lat, lon or a place  [/leave] leave  [Esc] quit")
        // 6 × 6 tiles of 2 × 2 pixels: 12 columns, 6 rows; tile 0 (top left) red, tile 7 (row 1, column 1) green.
        let picture = rendered.filter { $0.text.hasPrefix("  ") && ($0.text.contains("▀") || $0.text.contains("░")) }
        #expect(picture.count == 6 && picture.allSatisfy { $0.text.count == 14 })
        #expect(picture[0].text == "  ▀▀░░░░░░░░░░" && picture[1].text == "  ░░▀▀░░░░░░░░" && picture[2].text == "  ░░░░░░░░░░░░")
        let red = RGB(200, 20, 20)
        let green = RGB(20, 180, 20)
        #expect(picture[0].spans[1] == Span("▀", .pixels(top: red, bottom: red)))
        #expect(picture[1].spans.contains(Span("▀", .pixels(top: green, bottom: green))))
        #expect(ANSI.code(for: .pixels(top: red, bottom: green)) == "\u{1B}[38;2;200;20;20m\u{1B}[48;2;20;180;20m")

        // Under ten seconds the countdown warns; the owner of the photo has no guess prompt.
        var late = state
        late.now = late.now.adding(milliseconds: 9_500)
        let countdown = QuizScreen.render(late, width: 90, height: 30).first { $0.text.hasPrefix("  Photo") }
        #expect(countdown?.spans.last == Span("0:07 to guess", .warning))
        let ann = QuizScreen.text(QuizFixtures.screen(try QuizFixtures.view("revealing"), me: QuizFixtures.ann), width: 90, height: 30)
        #expect(ann.contains("  Photo 1 of 2 · your photo · 2 of 36 tiles · 0:16 to guess"))
        #expect(ann.last == "  [/reveal] reveal now  [/end] end  [/leave] leave  [Esc] quit")
    }

    @Test("A short terminal gets the picture scaled down to the rows it has")
    func smallPicture() throws {
        let lines = QuizScreen.text(QuizFixtures.screen(try QuizFixtures.view("revealing")), width: 90, height: 13)
        let picture = lines.filter { $0.contains("▀") || $0.contains("░") }
        #expect(picture.count == 3 && picture[0] == "  ▀▀░░░░")
    }

    @Test("At the reveal: the place, the date, the position, each guess with its distance and points")
    func revealed() throws {
        let lines = QuizScreen.text(QuizFixtures.screen(try QuizFixtures.view("revealed")), width: 90, height: 30)
        #expect(lines.contains("  Photo 1 of 2 · Paris, France · Jun 14, 2024"))
        #expect(lines.contains("  Taken at 48.8566°N, 2.3522°E"))
        #expect(lines.contains("  Cy   0.00 km away · 5000 points"))
        #expect(lines.contains("  Bo   344 km away · 3972 points (you)"))
        #expect(lines.contains("  Scores: Ann 0 · Bo 3972 · Cy 5000"))
        #expect(!lines.contains { $0.contains("where?") })
        let ann = QuizScreen.text(QuizFixtures.screen(try QuizFixtures.view("revealed"), me: QuizFixtures.ann), width: 90, height: 30)
        #expect(ann.last == "  [/next] next photo  [/end] end  [/leave] leave  [Esc] quit")
    }

    @Test("At the end: the standings")
    func complete() throws {
        let lines = QuizScreen.text(QuizFixtures.screen(try QuizFixtures.view("complete")), width: 90, height: 20)
        #expect(lines.contains("  The quiz is over."))
        #expect(lines.contains("  1. Cy · 5000 points") && lines.contains("  2. Bo · 3972 points") && lines.contains("  3. Ann · 0 points"))
        #expect(lines.last == "  [Esc] quit")
    }

    @Test("A guess is typed as a position or a place's name, looked up in the places")
    func typingAGuess() throws {
        var state = QuizFixtures.screen(try QuizFixtures.view("revealing"))
        func type(_ text: String) -> QuizAction? {
            for character in text { _ = state.handle(.character(character)) }
            return state.handle(.enter)
        }
        #expect(type("48.85, 2.35") == .guess(latitude: 48.85, longitude: 2.35, place: nil))
        #expect(type("-33.87 151.21") == .guess(latitude: -33.87, longitude: 151.21, place: nil))
        #expect(type("Lyon") == .guess(latitude: 45.74846, longitude: 4.84671, place: "Lyon, Auvergne-Rhone-Alpes, FR"))
        #expect(type("kyoto, jp") == .guess(latitude: 35.02107, longitude: 135.75385, place: "Kyoto, JP"))
        #expect(type("Paris") == nil)
        #expect(state.message?.text == "Which Paris? Add the country or region: Paris, Ile-de-France, FR; Paris, Texas, US.")
        #expect(type("Atlantis") == nil && state.message?.isError == true)
        #expect(state.message?.text.hasPrefix("No place called Atlantis is known") == true)
        #expect(type("91, 0") == nil && state.message?.text == "A latitude is between -90 and 90 (got 91).")
        #expect(type("/reveal") == .reveal && type("/next") == .next && type("/end") == .end && type("/start") == .start)
        #expect(type("/dance") == nil && state.message?.text.hasPrefix("Unknown command \"/dance\"") == true)
        #expect(state.handle(.escape) == .quit)

        // The owner of the photo, a watcher and anyone after the reveal cannot guess.
        var ann = QuizFixtures.screen(try QuizFixtures.view("revealing"), me: QuizFixtures.ann)
        #expect(ann.action(for: .guess("Lyon")) == nil && ann.message?.text == "This is your photo: the others guess it.")
        var watcher = QuizFixtures.screen(try QuizFixtures.view("revealing"), me: UserID("00000000-0000-4000-8000-0000000000ff")!)
        #expect(watcher.action(for: .guess("Lyon")) == nil && watcher.message?.text == "You are watching; only players guess.")
        var late = QuizFixtures.screen(try QuizFixtures.view("revealed"))
        #expect(late.action(for: .guess("Lyon")) == nil && late.message?.text == "This photo has been revealed; wait for the next.")

        // Without places (still loading, or none), a name cannot be looked up; a position still can.
        var bare = QuizFixtures.screen(try QuizFixtures.view("revealing"))
        bare.places = PlaceLookup(path: nil)
        #expect(bare.action(for: .guess("Lyon")) == nil)
        #expect(bare.message?.text == "There are no places to look names up in (--places none) — type the position instead, e.g. 48.85, 2.35.")
        #expect(bare.action(for: .guess("45.7, 4.8")) == .guess(latitude: 45.7, longitude: 4.8, place: nil))
    }

    @Test("Script lines: guess WHERE, start, reveal, next, end, leave, quiz, quit")
    func scriptLines() {
        #expect(QuizInput.parseScript("guess Kyoto, JP") == .success(.guess("Kyoto, JP")))
        #expect(QuizInput.parseScript("  START ") == .success(.start))
        #expect(QuizInput.parseScript("quiz") == .success(.showQuiz))
        #expect(QuizInput.parseScript("") == nil)
        #expect(QuizInput.parseScript("guess") == .failure(ScriptCommandError("guess needs a place or a position, e.g. \"guess Lyon\" or \"guess 48.85, 2.35\".")))
        #expect(QuizInput.parseScript("next 2") == .failure(ScriptCommandError("next takes no arguments (got \"2\").")))
        #expect(QuizInput.parseTyped("Lyon") == .success(.guess("Lyon")))
    }

    @Test("The host's rematch of a finished quiz: refused to the others and before the end; its code takes every session on")
    func rematch() throws {
        let complete = try QuizFixtures.view("complete")
        var bo = GameSessionLogic<QuizGame>(mode: .scripted, screen: QuizFixtures.screen(complete))
        #expect(bo.handle(.line("rematch")).action == nil && bo.screen.message == nil)
        #expect(QuizInput.parseScript("rematch") == .success(.rematch))
        var notHost = QuizFixtures.screen(complete)
        #expect(notHost.action(for: .rematch) == nil && notHost.message?.text == "Only the host starts a rematch; Ann can.")
        var early = QuizFixtures.screen(try QuizFixtures.view("revealed"), me: QuizFixtures.ann)
        #expect(early.action(for: .rematch) == nil && early.message?.text == "A rematch starts once the quiz is over.")
        var ann = GameSessionLogic<QuizGame>(mode: .scripted, screen: QuizFixtures.screen(complete, me: QuizFixtures.ann))
        #expect(ann.handle(.line("rematch")).action == .rematch)

        var json = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(complete)) as? [String: Any])
        json["rematch"] = "WPKTH"
        json["version"] = complete.version + 1
        let announced = try JSONDecoder().decode(QuizView.self, from: JSONSerialization.data(withJSONObject: json))
        for var logic in [bo, ann] {
            let step = logic.handle(.update(announced, receivedAt: logic.screen.now))
            #expect(step.outputs == [.quiz(announced), .rematch(code: "WPKTH")] && step.ending == .rematch(code: "WPKTH"))
        }
        #expect(QuizOutput.rematch(code: "WPKTH").jsonLine == #"{"code":"WPKTH","event":"rematch"}"#)
        guard case .watch(let code, _)? = QuizGame.rematchEntry(code: "WPKTH", from: ann.screen) else {
            Issue.record("the session does not follow the rematch")
            return
        }
        #expect(code == "WPKTH", "the players' seats are there already: watching it takes them")
    }

    @Test("A scripted guess is sent resolved; its reply's quiz is reported, then done, and the screen remembers it")
    func scriptedGuess() throws {
        var logic = GameSessionLogic<QuizGame>(mode: .scripted, screen: QuizFixtures.screen(try QuizFixtures.view("revealing")))
        let step = logic.handle(.line("guess Lyon"))
        let action = QuizAction.guess(latitude: 45.74846, longitude: 4.84671, place: "Lyon, Auvergne-Rhone-Alpes, FR")
        #expect(step.action == action)
        let reply = try QuizFixtures.view("revealing", version: 6, guessed: true)
        let done = logic.handle(.actionFinished(action, .success(reply)))
        #expect(done.outputs == [.quiz(reply), .done(action)])
        #expect(logic.screen.myGuessText == "Lyon, Auvergne-Rhone-Alpes, FR (45.7485°N, 4.8467°E)")
        #expect(QuizScreen.text(logic.screen, width: 90, height: 30).contains("  Your guess: Lyon, Auvergne-Rhone-Alpes, FR (45.7485°N, 4.8467°E)"))
        let refused = logic.handle(.line("guess Nowhere"))
        #expect(refused.action == nil && refused.outputs.count == 1)
        #expect(QuizOutput.done(action).jsonLine == #"{"action":"guess","event":"done"}"#)
    }

    @Test("quiz create reads its settings, join and watch normalize the code, upload wants files")
    func arguments() throws {
        let create = try parse(["quiz", "create", "--reveal-speed", "fast", "--timer", "45", "--length", "endless", "--album", "Japan", "--name", "Ann"], as: QuizCreate.self)
        #expect(create.settings == QuizSettingsFields(revealSpeed: "fast", timerDuration: 45, sessionLength: "endless", albums: ["Japan"]))
        #expect(try parse(["quiz", "join", "qwert"], as: QuizJoin.self).code == "QWERT")
        #expect(try parse(["quiz", "watch", " qwert "], as: QuizWatch.self).code == "QWERT")
        #expect(complaint(["quiz", "create", "--timer", "5"]) == "--timer must be between 10 and 120 (got 5).")
        #expect(complaint(["quiz", "create", "--length", "7"]) == "--length must be 5, 10, 20 or endless (got \"7\").")
        #expect(complaint(["quiz", "create", "--reveal-speed", "warp"]) == "--reveal-speed must be slow, medium or fast (got \"warp\").")
        #expect(complaint(["quiz", "join", "QWERTY"])?.hasPrefix("Quiz code") == true)
        #expect(complaint(["quiz", "upload", "QWERT"]) == "Name at least one JPEG file to upload.")
        #expect(complaint(["quiz", "upload", "QWERT", "/nonexistent/photo.jpg"]) == "Cannot read /nonexistent/photo.jpg.")
    }
}
