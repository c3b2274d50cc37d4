"""Plays a photo quiz in the browser client (GET /) in three headless Chromium browsers, as three phones
would: Ann creates the quiz and uploads a photo taken in Paris; Bo and Cy join by its code; the photo
fills in tile by tile on a canvas with the countdown; Bo guesses by typing "Paris" and picking the
suggestion, Cy by tapping Sydney on the world map; everyone sees the reveal (the place, each guess's
distance and points), then the standings. Then, against a server without places data, Ann and Bo play
again with a portrait photo: a typed name says the server has no places, the map (a bare grid) still
takes the guess, and the reveal shows the photo's coordinates.

Usage: browser_quiz.py HTTP_URL HTTP_URL_WITHOUT_PLACES PHOTO PORTRAIT_PHOTO SCREENSHOT_DIR. The first server must read
GeoNames' places (Paris is suggested by name, and the map shows where places are); the second none. Exits non-zero on any surprise; screenshots of
each quiz screen at 390x844 go to SCREENSHOT_DIR. Needs what browser_client.py needs."""
import json
import os
import re
import sys

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By

from browser_client import Phone, check

# Where Cy taps: Sydney, on the equirectangular map.
SYDNEY = (-33.87, 151.21)


def tap_map(phone, latitude, longitude):
    """Taps the guess map where the position is drawn (offsets are from the element's centre)."""
    canvas = phone.find("#guess-map")
    phone.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", canvas)
    box = canvas.rect
    x = ((longitude + 180) / 360 - 0.5) * box["width"]
    y = ((90 - latitude) / 180 - 0.5) * box["height"]
    ActionChains(phone.driver).move_to_element_with_offset(canvas, int(x), int(y)).click().perform()


def tiles(phone):
    return int(phone.driver.execute_script(
        "const c = document.getElementById('quiz-photo'); return c ? Number(c.dataset.tiles || 0) : 0"))


def play(ann, bo, cy, photo):
    for phone, name in ((ann, "Ann"), (bo, "Bo"), (cy, "Cy")):
        phone.open()
        phone.type("#name", name)
    # A slow reveal and a long timer: the photo is revealed because everyone has guessed.
    ann.driver.execute_script("document.querySelectorAll('details').forEach((d) => d.open = true)")
    ann.select("#quiz-speed", "slow")
    ann.type("#quiz-timer", "120")
    ann.select("#quiz-length", "5")
    ann.shot("q01-home")
    ann.click("#create-quiz")
    ann.wait_text(".eyebrow", "Photo quiz")
    code = ann.text("#quiz-code").strip()
    check(re.fullmatch(r"[A-Z]{5}", code) is not None, f"a quiz code: {code!r}")
    ann.wait_text("#quiz-settings", "slow reveal · 120 s to guess · 5 photos")
    for phone in (bo, cy):
        phone.type("#code", code.lower())
        phone.click("#join")
        phone.wait_text(".eyebrow", "Photo quiz")
    ann.wait(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#quiz-players li")) == 3, "three players")
    check(not bo.exists("#start-quiz"), "only the host starts")
    # The start waits for a photo.
    check(not ann.find("#start-quiz").is_enabled(), "no start without a photo")
    ann.find("#photo-file").send_keys(photo)
    ann.type("#photo-album", "Paris")
    ann.click("#upload-photo")
    bo.wait_text("#upload-count", "1 photo in 1 album")
    ann.wait_text("#notice", "Photo added to Paris")
    ann.wait_text("#quiz-players", "1 photo")
    bo.shot("q02-waiting")
    ann.click("#start-quiz")

    for phone in (ann, bo, cy):
        phone.wait_text("#photo-caption", "Photo 1 of 1")
        phone.wait(lambda d, p=phone: tiles(p) >= 2, "tiles drawn on the canvas")
    check(re.fullmatch(r"[12]:\d\d", bo.text("#quiz-countdown").strip()) is not None, f"a countdown: {bo.text('#quiz-countdown')!r}")
    countdown = bo.text("#quiz-countdown")
    ann.wait_text("#guess-status", "This is your photo")
    check(not ann.exists("#guess-card"), "the uploader does not guess")
    ann.shot("q03-own-photo")

    # Bo types the name and picks Paris, France from the server's suggestions.
    bo.type("#place-name", "Paris")
    bo.wait(lambda d: any("France" in b.text for b in d.find_elements(By.CSS_SELECTOR, "#place-suggestions button")),
            "Paris, France suggested")
    suggested = bo.text("#place-suggestions")
    bo.shot("q04-suggestions")
    france = next(b for b in bo.driver.find_elements(By.CSS_SELECTOR, "#place-suggestions button") if "France" in b.text)
    france.click()
    bo.wait_text("#confirm-guess", "Guess Paris, France")
    bo.click("#confirm-guess")
    bo.wait_text("#guess-status", "Your guess: Paris, France")
    ann.wait_text("#guess-status", "1 of 2 guessed")

    # Cy taps Sydney on the map: a pin, and a guess to confirm.
    cy.wait(lambda d: d.find_element(By.CSS_SELECTOR, "#guess-map").get_attribute("data-cells") == "places", "the map's places")
    tap_map(cy, *SYDNEY)
    cy.wait_text("#confirm-guess", "° S")
    pin = cy.text("#confirm-guess")
    match = re.search(r"([\d.]+)° S, ([\d.]+)° E", pin)
    check(match is not None and abs(float(match.group(1)) - 33.87) < 2 and abs(float(match.group(2)) - 151.21) < 2,
          f"the tap is near Sydney: {pin!r}")
    check(tiles(cy) < 36, "the photo is still filling in")
    cy.shot("q05-map-pin-dark")
    cy.click("#confirm-guess")

    # Every eligible player has guessed: the reveal, on every phone.
    for phone in (ann, bo, cy):
        phone.wait_text("#answer", "Paris, France")
        phone.wait_text("#answer-date", "Jun 14, 2024")
        phone.wait(lambda d, p=phone: p.driver.execute_script(
            "return document.getElementById('quiz-photo').dataset.whole") == "true", "the whole photo")
    guesses = [row.split("\t") for row in ann.text("#guesses tbody").splitlines()]
    check([row[0] for row in guesses] == ["Bo", "Cy"], f"best guess first: {guesses}")
    check(guesses[0][2] == "5000" or int(guesses[0][2]) > 4990, f"Bo scores nearly everything: {guesses}")
    check(guesses[1][1].endswith("km") and int(guesses[1][1].replace(",", "").split()[0]) > 16000, f"Cy is far away: {guesses}")
    ann.shot("q06-revealed-host")
    bo.shot("q07-revealed")
    cy.shot("q08-revealed-dark")
    bo.narrow(360)
    bo.shot("q09-revealed-360")

    ann.click("#next-photo")
    for phone in (ann, bo, cy):
        phone.wait_text("#quiz-standings", "Standings")
    standings = bo.driver.execute_script(
        "return [...document.querySelectorAll('#quiz-standings li')].map((li) => [...li.children].map((c) => c.innerText).join(' '))")
    check(standings[0] == "1. Bo (you) " + guesses[0][2] and standings[1:] == ["2. Ann 0", "2. Cy 0"], f"Bo wins: {standings}")
    bo.shot("q10-standings")
    return code, countdown, suggested, guesses, standings


def without_places(ann, bo, base, photo):
    for phone, name in ((ann, "Ann"), (bo, "Bo")):
        phone.base = base
        phone.open()
        phone.type("#name", name)
    ann.click("#create-quiz")
    ann.wait_text(".eyebrow", "Photo quiz")
    code = ann.text("#quiz-code").strip()
    bo.type("#code", code)
    bo.click("#join")
    bo.wait_text(".eyebrow", "Photo quiz")
    ann.find("#photo-file").send_keys(photo)
    ann.click("#upload-photo")
    ann.wait_text("#upload-count", "1 photo")
    ann.click("#start-quiz")
    bo.type("#place-name", "Paris")
    bo.wait_text("#place-suggestions", "no list of places")
    unavailable = bo.text("#place-suggestions")
    bo.wait(lambda d: d.find_element(By.CSS_SELECTOR, "#guess-map").get_attribute("data-cells") == "grid", "the bare map")
    # A portrait photo keeps its shape and leaves room for the guess on the screen.
    bo.wait(lambda d: tiles(bo) >= 1, "a tile of the portrait photo")
    shape = bo.driver.execute_script(
        "const r = document.getElementById('quiz-photo').getBoundingClientRect(); return [r.width, r.height, innerHeight]")
    check(shape[1] > shape[0] and shape[1] <= 0.61 * shape[2], f"the portrait photo's box: {shape}")
    tap_map(bo, 48.86, 2.35)
    bo.wait_text("#confirm-guess", "° N")
    bo.shot("q11-no-places")
    bo.click("#confirm-guess")
    # Bo was the only one to guess: the reveal, with coordinates instead of a place's name.
    bo.wait_text("#answer", "48.86° N, 2.35° E")
    bo.shot("q12-no-places-revealed")
    return unavailable


def main(base, bare, photo, portrait, shots):
    os.makedirs(shots, exist_ok=True)
    phones = []
    try:
        phones = [Phone("ann", base, shots), Phone("bo", base, shots), Phone("cy", base, shots, dark=True)]
        code, countdown, suggested, guesses, standings = play(*phones, photo)
        unavailable = without_places(phones[0], phones[1], bare, portrait)
        for phone in phones:
            # The server without places answers /places and /places/map with 503, as it should; the
            # browser reports every failed request itself.
            errors = [entry for entry in phone.driver.get_log("browser") if entry.get("level") == "SEVERE"
                      and not ("/places" in entry.get("message", "") and "503" in entry.get("message", ""))]
            check(not errors, f"{phone.name}: console errors {errors}")
        print(json.dumps({
            "ok": True, "quiz": code, "countdown": countdown, "suggested": suggested.splitlines(),
            "guesses": guesses, "standings": standings, "without_places": unavailable, "screenshots": shots,
        }, ensure_ascii=False))
    finally:
        for phone in phones:
            phone.quit()


if __name__ == "__main__":
    main(sys.argv[1].rstrip("/"), sys.argv[2].rstrip("/"), sys.argv[3], sys.argv[4], sys.argv[5])
