"""Plays the browser client (GET /) in three headless Chromium browsers, as three phones would: a rummy
room from the join link to the settlement (with its QR code read back by zbar, a spectator, an error
shown by its code, and one phone losing its network and coming back to its seat), then a word-game
round to its results, then a darts leg with a guest the host scores for, a spectator, a bust and an edited last visit,
and the host's rematch every phone follows.

Usage: browser_client.py HTTP_URL SCREENSHOT_DIR. Exits non-zero on any surprise; screenshots of each
screen at 390x844 go to SCREENSHOT_DIR. Needs Debian's chromium and chromium-driver and Python's
selenium, and zbar-tools (scripts/setup.sh --test)."""
import json
import os
import subprocess
import sys
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

WAIT = 30


def fail(message):
    print(json.dumps({"ok": False, "error": message}))
    sys.exit(1)


def check(condition, message):
    if not condition:
        fail(message)


class Phone:
    """One browser with its own profile (its own localStorage: its own token and seat)."""

    def __init__(self, name, base, shots, dark=False):
        self.name = name
        self.base = base
        self.shots = shots
        options = webdriver.ChromeOptions()
        options.binary_location = "/usr/bin/chromium"
        for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                         "--no-first-run", "--disable-extensions", "--window-size=390,844"):
            options.add_argument(argument)
        options.add_experimental_option("mobileEmulation", {
            "deviceMetrics": {"width": 390, "height": 844, "pixelRatio": 2},
            "userAgent": "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
                         "Chrome/156.0 Mobile Safari/537.36",
        })
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        self.driver = webdriver.Chrome(options=options, service=Service("/usr/bin/chromedriver"))
        self.driver.set_page_load_timeout(WAIT)
        if dark:
            self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {
                "features": [{"name": "prefers-color-scheme", "value": "dark"}]})

    def open(self, path="/"):
        self.driver.get(self.base + path)
        self.wait(lambda d: d.execute_script("return document.body.dataset.connection") == "online", "online")

    def wait(self, condition, what, timeout=WAIT):
        try:
            # The app re-renders on every update: an element found a moment ago may be gone; look again.
            return WebDriverWait(self.driver, timeout, poll_frequency=0.1,
                                 ignored_exceptions=[StaleElementReferenceException]).until(condition)
        except Exception:
            self.shot(f"failed-{self.name}")
            logs = ""
            try:
                logs = json.dumps(self.driver.get_log("browser"))[:2000]
            except Exception:
                pass
            fail(f"{self.name}: timed out waiting for {what}; body: {self.text('body')[:1500]!r}; console: {logs}")

    def find(self, selector):
        return self.wait(lambda d: d.find_element(By.CSS_SELECTOR, selector), selector)

    def exists(self, selector):
        return len(self.driver.find_elements(By.CSS_SELECTOR, selector)) > 0

    def text(self, selector):
        """The element's text as shown (innerText), read in one step so a re-render cannot go stale on it."""
        return self.driver.execute_script(
            "const e = document.querySelector(arguments[0]); return e ? e.innerText : ''", selector)

    def wait_text(self, selector, needle, timeout=WAIT):
        """Waits for `needle` in the element's text as shown, ignoring case (CSS may upper-case it)."""
        self.wait(lambda d: needle.lower() in self.text(selector).lower(), f"{needle!r} in {selector}", timeout)

    def click(self, selector):
        element = self.wait(
            lambda d: next((e for e in d.find_elements(By.CSS_SELECTOR, selector) if e.is_enabled() and e.is_displayed()), None),
            f"{selector} to be clickable")
        self.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
        element.click()

    def type(self, selector, text, clear=True):
        element = self.find(selector)
        if clear:
            element.clear()
        element.send_keys(text)

    def select(self, selector, value):
        Select(self.find(selector)).select_by_value(value)

    def shot(self, name):
        self.driver.execute_script("window.scrollTo(0, 0)")
        self.driver.save_screenshot(os.path.join(self.shots, f"{name}.png"))
        if not name.startswith("failed"):
            self.check_fits(name)

    def check_fits(self, name):
        """A phone screen never scrolls sideways: anything wider than the viewport is a layout defect."""
        widths = self.driver.execute_script(
            "return [document.documentElement.scrollWidth, window.innerWidth]")
        check(widths[0] <= widths[1], f"{self.name}: {name} is {widths[0]} px wide in a {widths[1]} px viewport")

    def narrow(self, width):
        """The same phone, narrower (360 px is the smallest the client is laid out for)."""
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": width, "height": 740, "deviceScaleFactor": 2, "mobile": True})

    def notice_code(self):
        return self.driver.execute_script(
            "const n = document.getElementById('notice'); return n.hidden ? null : n.dataset.code")

    def offline(self, off):
        self.driver.execute_cdp_cmd("Network.enable", {})
        self.driver.execute_cdp_cmd("Network.emulateNetworkConditions", {
            "offline": off, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})

    def quit(self):
        self.driver.quit()


def enter_score(phone, round_number, points, player=None):
    if player:
        phone.select("#score-player", player)
    phone.select("#score-round", str(round_number))
    phone.type("#score-value", str(points))
    phone.click("#score-save")


def row_total(phone, name):
    return phone.driver.execute_script("""
        for (const row of document.querySelectorAll('#scores tbody tr'))
            if (row.querySelector('th').textContent.trim() === arguments[0]) return row.querySelector('.total').textContent;
        return null;""", name)


def rummy(ann, bo, cy):
    ann.open("/")
    ann.shot("01-home")
    ann.type("#name", "Ann")
    ann.driver.find_element(By.CSS_SELECTOR, "details summary").click()
    ann.type("#point-limit", "100")
    ann.click("#create-room")
    ann.wait(lambda d: len(ann.text("#room-code")) == 6, "the room code")
    code = ann.text("#room-code")

    # The join link as a QR code, read back by zbar (a decoder we did not write).
    ann.click("#share")
    qr = ann.find("#qr svg")
    ann.shot("02-share")
    qr_file = os.path.join(ann.shots, "qr.png")
    qr.screenshot(qr_file)
    decoded = subprocess.run(["zbarimg", "--quiet", "--raw", qr_file], capture_output=True, text=True)
    check(decoded.stdout.strip() == f"{ann.base}/?code={code}", f"the QR code reads {decoded.stdout!r} ({decoded.stderr!r})")
    check(ann.text("#join-link") == f"{ann.base}/?code={code}", "the link is shown beside it")
    ann.click("#share")
    ann.wait(lambda d: not ann.exists("#share-panel"), "the share panel to close")

    # A wrong code is refused, described, and carries its code.
    bo.open("/")
    bo.type("#name", "Bo")
    bo.type("#code", "ZZZZZZ")
    bo.click("#join")
    bo.wait(lambda d: bo.notice_code() == "ROOM_NOT_FOUND", "ROOM_NOT_FOUND shown")
    check("no room with that code" in bo.text("#notice"), f"the sentence for ROOM_NOT_FOUND: {bo.text('#notice')!r}")
    bo.shot("03-join-error")

    # Cy watches by code before sitting down: the room, no controls.
    cy.open("/")
    cy.type("#name", "Cy")
    cy.type("#code", code.lower())
    cy.click("#watch")
    cy.wait_text(".eyebrow", "Watching")
    cy.wait_text("#players", "Ann")
    check(not cy.exists("#ready") and not cy.exists("#start"), "a spectator has no ready or start button")
    cy.shot("04-watching")
    cy.click("#leave")
    cy.find("#code")

    # Bo and Cy come in by the join link.
    for phone in (bo, cy):
        phone.open(f"/?code={code}")
        check(phone.find("#code").get_attribute("value") == code, f"{phone.name}: the link fills in the code")
        phone.click("#join")
        phone.wait_text("#room-code", code)
    ann.wait(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#players li")) == 3, "three seats")
    check(not ann.find("#start").is_enabled(), "start waits for everyone to be ready")
    bo.click("#ready")
    ann.wait_text("#players", "ready")
    ann.shot("05-room-waiting")
    cy.click("#ready")
    ann.wait(lambda d: d.find_element(By.CSS_SELECTOR, "#start").is_enabled(), "start enabled")
    ann.click("#start")
    for phone in (ann, bo, cy):
        phone.wait_text("#round", "Round 1")

    enter_score(ann, 1, 10)
    ann.wait(lambda d: row_total(ann, "Ann") == "10", "Ann's 10")
    # Out of range (0…1000): the form says so before anything is sent.
    enter_score(bo, 1, 2000)
    check(bo.driver.execute_script("return document.querySelector('#score-value').validity.rangeOverflow"),
          "2000 points is refused by the form")
    check(row_total(ann, "Bo") == "0", "nothing was sent")
    enter_score(bo, 1, 40)
    ann.wait(lambda d: row_total(ann, "Bo") == "40", "Bo's 40 on Ann's phone")
    ann.shot("06-room-playing")

    # Bo's phone loses its network; Cy scores meanwhile; Bo comes back to the same seat and sees it.
    bo.offline(True)
    bo.driver.execute_script("window.parlor.connection.drop()")
    bo.wait(lambda d: d.execute_script("return document.body.dataset.connection") == "offline", "Bo offline")
    check(bo.find("#connection").is_displayed(), "the offline banner shows")
    time.sleep(1.5)
    check(bo.driver.execute_script("return document.body.dataset.connection") == "offline", "Bo stays offline without a network")
    bo.shot("07-offline")
    enter_score(cy, 1, 120)
    ann.wait(lambda d: row_total(ann, "Cy") == "120", "Cy's 120 on Ann's phone")
    check(row_total(bo, "Cy") != "120", "an offline phone does not see the change")
    bo.offline(False)
    bo.wait(lambda d: d.execute_script("return document.body.dataset.connection") == "online", "Bo back online", timeout=WAIT)
    bo.wait(lambda d: row_total(bo, "Cy") == "120", "Bo sees Cy's score after coming back")
    check(bo.exists("#score-form"), "Bo is still seated after coming back")
    enter_score(bo, 1, 45)
    ann.wait(lambda d: row_total(ann, "Bo") == "45", "Bo's correction after coming back")

    ann.click("#next-round")
    for phone in (ann, bo, cy):
        phone.wait_text("#winner", "Ann wins")
    settlement = ann.text("#settlement")
    check("Bo pays Ann" in settlement and "$8.75" in settlement, f"Bo owes (45 - 10) x 25 cents: {settlement!r}")
    check("Cy pays Ann" in settlement and "$27.50" in settlement, f"Cy owes (120 - 10) x 25 cents: {settlement!r}")
    standings = [line.split() for line in ann.text("#standings").splitlines()]
    ann.shot("08-room-settlement")
    cy.shot("09-room-settlement-dark")
    check(not bo.exists("#rematch"), "only the moderator is offered the rematch")

    # The moderator's rematch: every phone at the table moves to the new room by itself, seated.
    ann.click("#rematch")
    for phone in (ann, bo, cy):
        phone.wait(lambda d: len(phone.text("#room-code")) == 6 and phone.text("#room-code") != code,
                   f"{phone.name}: the rematch's room")
    rematch = ann.text("#room-code")
    for phone in (bo, cy):
        check(phone.text("#room-code") == rematch, f"{phone.name} followed to {rematch}")
        phone.wait_text("#players", "(you)")
    ann.shot("09b-room-rematch")
    for phone in (ann, bo, cy):
        phone.click("#leave")
        phone.driver.switch_to.alert.accept()
        phone.find("#code")
    return code, settlement, standings


def word_game(ann, bo, cy):
    ann.click("#create-lobby")
    ann.wait(lambda d: len(ann.text("#lobby-code")) == 4, "the lobby code")
    code = ann.text("#lobby-code")
    # Cy watches the word game by its code first: the players, no start button, Close instead of Leave.
    cy.type("#code", code)
    cy.click("#watch")
    cy.wait_text(".eyebrow", "Watching a word game")
    cy.wait_text("#players", "Ann")
    check(not cy.exists("#start-round") and cy.text("#leave") == "Close", "a spectator has no controls")
    cy.shot("09c-lobby-watching-dark")
    cy.click("#leave")
    cy.find("#code")
    for phone in (bo, cy):
        phone.open(f"/?code={code}")
        phone.click("#join")
        phone.wait_text("#lobby-code", code)
    ann.wait(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#players li")) == 3, "three players")
    bo.wait_text("#waiting", "Waiting for Ann")
    ann.wait(lambda d: d.find_elements(By.CSS_SELECTOR, "#game-pick option[value='greek-letters']"), "the catalog's games")
    ann.select("#game-pick", "greek-letters")
    ann.shot("10-lobby-open")
    ann.click("#start-round")
    for phone in (ann, bo, cy):
        phone.wait(lambda d: phone.exists("#word"), f"{phone.name}: the word field")
        phone.wait(lambda d: ":" in phone.text("#countdown"), f"{phone.name}: the countdown")

    def say(phone, word, accepted):
        phone.type("#word", word)
        phone.click("#send")
        mark = "✓" if accepted else "✗"
        phone.wait(lambda d: phone.text("#verdict").startswith(mark), f"{phone.name}: the verdict on {word!r}")

    say(ann, "alpha", True)
    say(ann, "Beta", True)
    say(bo, "alpha", True)
    say(bo, "omegas", False)
    check("not one of the accepted answers" in bo.text("#verdict"), f"the reason: {bo.text('#verdict')!r}")
    say(bo, "ALPHA", False)
    say(cy, "gamma", True)
    bo.wait_text("#my-words", "omegas")
    check("gamma" not in bo.text("body"), "nobody sees another player's words during the round")
    left = bo.text("#countdown")
    bo.shot("11-lobby-round")
    cy.shot("12-lobby-round-dark")

    for phone in (ann, bo, cy):
        phone.wait(lambda d: phone.exists("#round-results"), f"{phone.name}: the round's results", timeout=60)
    results = ann.driver.execute_script("""
        return [...document.querySelectorAll('#round-results .result-head')].map(head =>
            [...head.children].map(part => part.textContent.trim()));""")
    check(results == [["Ann", "+3 · total 3"], ["Cy", "+2 · total 2"], ["Bo", "+1 · total 1"]], f"the scores: {results!r}")
    check("gamma" in bo.text("#round-results"), "everyone's words after the round")
    ann.shot("13-lobby-results")
    bo.shot("14-lobby-results-player")
    return code, left, results


def throw(phone, *darts):
    for dart in darts:
        if dart[0] in "DT" and dart != "DB":
            phone.click(f"[data-multiplier='{dart[0]}']")
        phone.click(f"[data-dart='{dart}']")
    phone.wait(lambda d: phone.text("#visit-darts").split() == list(darts), f"{phone.name}: the darts {darts}")


def remaining(phone, name):
    return phone.driver.execute_script("""
        for (const card of document.querySelectorAll('#scoreboard .player-card'))
            if (card.querySelector('.name').textContent === arguments[0]) return card.querySelector('.remaining').textContent;
        return null;""", name)


def darts(ann, bo, cy):
    ann.driver.find_elements(By.CSS_SELECTOR, "details summary")[1].click()
    ann.select("#darts-game", "301")
    ann.click("#create-match")
    ann.wait(lambda d: len(ann.text("#match-code")) == 5, "the match code")
    code = ann.text("#match-code")
    bo.open(f"/?code={code}")
    bo.click("#join")
    bo.wait_text("#match-code", code)
    cy.open("/")
    cy.type("#code", code)
    cy.click("#watch")
    cy.wait_text(".eyebrow", "Watching darts")
    ann.wait(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#players li")) == 2, "two players")
    # Gil has no phone: Ann, the host, seats him as a guest and scores for him.
    ann.type("#guest-name", "Gil")
    ann.click("#add-guest")
    bo.wait_text("#players", "Gil")
    check(not bo.exists("#add-guest") and not bo.exists("#start-match"), "only the host adds guests and starts")
    ann.shot("15-darts-waiting")
    ann.click("#start-match")

    throw(ann, "T20", "T20", "T20")
    ann.click("#enter-visit")
    cy.wait(lambda d: remaining(cy, "Ann") == "121", "Ann's 121 on the spectator's board")
    check(not cy.exists("#keypad"), "a spectator has no keypad")
    bo.type("#visit-total", "100")
    bo.click("#enter-total")
    ann.wait(lambda d: remaining(ann, "Bo") == "201", "Bo's 201")
    ann.wait_text("#keypad h2", "Gil to throw")
    check(not bo.exists("#keypad"), "Bo does not score for Gil")
    ann.type("#visit-total", "45")
    ann.click("#enter-total")
    cy.wait(lambda d: remaining(cy, "Gil") == "256", "Gil's 256 on the spectator's board")
    # The host takes Gil's visit back (a total typed by mistake) and enters it again.
    ann.click("#take-back-last")
    cy.wait(lambda d: remaining(cy, "Gil") == "301", "Gil's visit taken back on the spectator's board")
    ann.wait_text("#keypad h2", "Gil to throw")
    ann.type("#visit-total", "45")
    ann.click("#enter-total")
    cy.wait(lambda d: remaining(cy, "Gil") == "256", "Gil's 256 again on the spectator's board")
    ann.wait_text("#checkout", "T20 T7 D20")
    check(ann.text("#aim") == "121 left · out T20 T7 D20", f"the keypad says what to aim for: {ann.text('#aim')!r}")
    ann.shot("16-darts-keypad")
    # 120 of 121 leaves 1, which no double finishes: a bust, and Bo's turn.
    throw(ann, "T20", "T20", "M")
    ann.click("#enter-visit")
    bo.wait(lambda d: bo.exists("#keypad"), "Bo's turn after Ann's bust")
    check(remaining(bo, "Ann") == "121", "a bust keeps the score")
    # Ann meant T20 T11 D14: she replaces her last visit, which checks out and wins the leg.
    ann.click("#edit-last")
    throw(ann, "T20", "T11", "D14")
    ann.click("#enter-visit")
    for phone in (ann, bo, cy):
        phone.wait_text("#winner", "Ann wins")
    check(remaining(cy, "Ann") == "0", "the checkout leaves nothing")
    stats = ann.text("#match-stats")
    cy.shot("17-darts-watching-dark")
    ann.shot("18-darts-finished")
    ann.narrow(360)
    ann.shot("19-darts-finished-360")
    # The host's rematch: every phone follows to the new match by itself, Bo now first to throw.
    check(not bo.exists("#rematch"), "only the host is offered the darts rematch")
    ann.click("#rematch")
    for phone in (ann, bo, cy):
        phone.wait(lambda d, phone=phone: len(phone.text("#match-code")) == 5 and phone.text("#match-code") != code,
                   f"{phone.name}: the darts rematch")
    bo.wait(lambda d: bo.exists("#keypad"), "Bo to throw first in the rematch")
    check(remaining(cy, "Ann") == "301", "the rematch starts from 301")
    return code, stats


def main(base, shots):
    os.makedirs(shots, exist_ok=True)
    phones = []
    try:
        phones = [Phone("ann", base, shots), Phone("bo", base, shots), Phone("cy", base, shots, dark=True)]
        room_code, settlement, standings = rummy(*phones)
        lobby_code, countdown, results = word_game(*phones)
        for phone in phones:
            phone.click("#leave")
            phone.driver.switch_to.alert.accept()
            phone.find("#code")
        match_code, match_stats = darts(*phones)
        for phone in phones:
            # A socket that cannot connect while the network is down is reported by the browser itself.
            errors = [entry for entry in phone.driver.get_log("browser")
                      if entry.get("level") == "SEVERE" and "WebSocket connection" not in entry.get("message", "")]
            check(not errors, f"{phone.name}: console errors {errors}")
        print(json.dumps({
            "ok": True, "room": room_code, "settlement": settlement.splitlines(), "standings": standings,
            "lobby": lobby_code, "countdown": countdown, "results": results, "match": match_code,
            "match_stats": match_stats.splitlines(), "screenshots": shots,
        }, ensure_ascii=False))
    finally:
        for phone in phones:
            phone.quit()


if __name__ == "__main__":
    main(sys.argv[1].rstrip("/"), sys.argv[2])
