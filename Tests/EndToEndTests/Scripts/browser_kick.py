"""The host removes a player in the browser client, through the shell every game page shares
(js/shell.js). Bo, not the host, never sees the button; the removed phone is told so and goes on
watching.
- tictactoe: Ann starts a game, Bo joins by the join link, Ann (the host) opens "Remove a player…" and
  removes Bo mid-game; the board is cleared and the game waits for a second player.
- wordgame: Ann opens a word game, Bo joins by the join link, Ann removes him; his stream ends (a
  lobby's stream carries a member's words) and his phone watches the lobby by its code instead.
- quiz: Ann starts a photo quiz, Bo and Cy join by its code, Ann removes Cy before the start (Cy watches
  on), uploads PHOTO, reveals it and goes to the standings; her rematch takes Ann and Bo to a new quiz
  where they are seated, and Cy's phone follows it as a spectator.

Usage: browser_kick.py HTTP_URL SCREENSHOT_DIR [tictactoe | wordgame | quiz PHOTO]. Exits non-zero on
any surprise. Needs what browser_client.py needs."""
import json
import os
import re
import sys

from selenium.webdriver.common.by import By

from browser_client import Phone, check
from browser_tictactoe import address, start_game


def play(ann, bo):
    code = start_game(ann)
    check(not ann.exists("#kick"), "nobody to remove while Ann waits alone")

    bo.open(f"/?code={code}")
    bo.type("#name", "Bo")
    bo.click("#join")
    bo.wait_text("#ttt-status", "Ann to play.")
    ann.wait_text("#ttt-status", "Your turn.")
    ann.click("#ttt-board [data-cell='4']")
    bo.wait_text("#ttt-status", "Your turn.")
    check(not bo.exists("#kick"), "only the host may remove a player")

    ann.click("#kick")
    ann.wait_text("#kick-panel", "Remove Bo")
    ann.shot("k01-panel")
    ann.click(f"#kick-panel [data-player='{bo_id(ann)}']")
    ann.driver.switch_to.alert.accept()
    ann.wait_text("#ttt-status", "Waiting for a second player")
    board = [e.text for e in ann.driver.find_elements(By.CSS_SELECTOR, "#ttt-board .ttt-cell")]
    check(board == [""] * 9, f"the board is cleared: {board}")
    check(not ann.exists("#kick-panel"), "the panel closes after the removal")

    bo.wait_text("#notice", f"You were removed from tic-tac-toe game {code}.")
    bo.wait_text(".eyebrow", "Watching tic-tac-toe")
    bo.wait_text("#ttt-status", "Waiting for a second player")
    bo.shot("k02-removed")
    return code, board


def bo_id(ann):
    """Bo's id, from the seat the panel offers (Ann's own is not offered)."""
    buttons = ann.driver.find_elements(By.CSS_SELECTOR, "#kick-panel [data-player]")
    check(len(buttons) == 1 and buttons[0].text == "Remove Bo", f"the panel offers Bo alone: {[b.text for b in buttons]}")
    return buttons[0].get_attribute("data-player")


def remove(host, name):
    """The host opens "Remove a player…" and removes `name`, confirming it."""
    host.click("#kick")
    host.wait_text("#kick-panel", f"Remove {name}")
    button = next(b for b in host.driver.find_elements(By.CSS_SELECTOR, "#kick-panel [data-player]") if b.text == f"Remove {name}")
    host.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
    button.click()
    host.driver.switch_to.alert.accept()
    host.wait_text("#notice", f"{name} was removed.")


def names(phone, selector):
    return [li.get_attribute("innerText").split("(you)")[0].strip()
            for li in phone.driver.find_elements(By.CSS_SELECTOR, f"{selector} li .name")]


def word_game(ann, bo):
    ann.open()
    ann.type("#name", "Ann")
    ann.click("#create-lobby")
    ann.wait(lambda d: re.fullmatch(r"[A-Z]{4}", ann.text("#lobby-code")) is not None, "a word game's code")
    code = ann.text("#lobby-code")
    check(address(ann) == f"/#{code}", f"the address carries the code: {address(ann)!r}")
    check(not ann.exists("#kick"), "nobody to remove while Ann waits alone")
    bo.open(f"/?code={code}")
    bo.type("#name", "Bo")
    bo.click("#join")
    bo.wait_text("#waiting", "Waiting for Ann")
    ann.wait(lambda d: names(ann, "#players") == ["Ann", "Bo"], "Bo in Ann's list")
    check(not bo.exists("#kick"), "only the host may remove a player")

    remove(ann, "Bo")
    ann.wait(lambda d: names(ann, "#players") == ["Ann"], "Bo gone from Ann's list")
    check(not ann.exists("#kick") and not ann.exists("#kick-panel"), "nobody left to remove")
    ann.shot("w01-removed-host")

    bo.wait_text("#notice", f"You were removed from word game {code}.")
    bo.wait_text(".eyebrow", "Watching a word game")
    bo.wait(lambda d: names(bo, "#players") == ["Ann"], "Bo watches the lobby without his seat")
    check(bo.text("#leave") == "Close" and not bo.exists("#start-round"), "a spectator has no controls")
    check(address(bo) == f"/#{code}", f"Bo's address still carries the code: {address(bo)!r}")
    bo.shot("w02-removed")
    return code, names(ann, "#players")


def eyebrow(phone):
    """What the header says is played, as written (CSS shows it in capitals)."""
    return phone.driver.execute_script("return document.querySelector('header .eyebrow')?.textContent ?? ''").strip()


def quiz(ann, bo, cy, photo):
    for phone, name in ((ann, "Ann"), (bo, "Bo"), (cy, "Cy")):
        phone.open()
        phone.type("#name", name)
    ann.click("#create-quiz")
    ann.wait(lambda d: re.fullmatch(r"[A-Z]{5}", ann.text("#quiz-code")) is not None, "a quiz code")
    code = ann.text("#quiz-code")
    check(address(ann) == f"/#{code}", f"the address carries the code: {address(ann)!r}")
    for phone in (bo, cy):
        phone.type("#code", code)
        phone.click("#join")
        phone.wait_text("#quiz-players", "(you)")
    ann.wait(lambda d: names(ann, "#quiz-players") == ["Ann", "Bo", "Cy"], "three players")
    check(not bo.exists("#kick"), "only the host may remove a player")

    # Ann removes Cy before the start: Cy's phone is told and watches on.
    remove(ann, "Cy")
    ann.wait(lambda d: names(ann, "#quiz-players") == ["Ann", "Bo"], "Cy gone from Ann's list")
    cy.wait_text("#notice", f"You were removed from photo quiz {code}.")
    cy.wait(lambda d: eyebrow(cy) == "Watching a photo quiz", "Cy watching")
    cy.wait(lambda d: names(cy, "#quiz-players") == ["Ann", "Bo"], "Cy sees the quiz without his seat")
    check(not cy.exists("#upload-form") and cy.text("#leave") == "Close", "a spectator uploads nothing")
    cy.shot("p01-removed")

    ann.find("#photo-file").send_keys(photo)
    ann.click("#upload-photo")
    bo.wait_text("#upload-count", "1 photo in 1 album")
    ann.click("#start-quiz")
    ann.click("#reveal-now")
    ann.click("#next-photo")
    for phone in (ann, bo, cy):
        phone.wait_text("#quiz-standings", "Standings")
    check(not ann.exists("#kick"), "a finished quiz keeps its standings: nobody to remove")
    check(not bo.exists("#rematch") and bo.exists("#rematch-note"), "only the host is offered the rematch")
    ann.shot("p02-standings")

    # Ann's rematch: Ann and Bo are seated in the new quiz, Cy's phone watches it.
    ann.click("#rematch")
    for phone in (ann, bo, cy):
        phone.wait(lambda d, p=phone: re.fullmatch(r"[A-Z]{5}", p.text("#quiz-code")) is not None and p.text("#quiz-code") != code,
                   f"{phone.name}: the rematch")
    rematch = ann.text("#quiz-code")
    for phone in (ann, bo, cy):
        phone.wait(lambda d, p=phone: p.text("#quiz-code") == rematch and names(p, "#quiz-players") == ["Ann", "Bo"],
                   f"{phone.name}: Ann and Bo in {rematch}")
        check(address(phone) == f"/#{rematch}", f"{phone.name}: the address carries the rematch's code: {address(phone)!r}")
    for phone in (ann, bo):
        phone.wait(lambda d, p=phone: eyebrow(p) == "Photo quiz", f"{phone.name} seated in the rematch")
        phone.wait_text("#upload-count", "0 photos")
    cy.wait(lambda d: eyebrow(cy) == "Watching a photo quiz", "Cy watching the rematch")
    check(ann.exists("#start-quiz") and not bo.exists("#start-quiz"), "Ann hosts the rematch")
    bo.shot("p03-rematch")
    return code, rematch, names(cy, "#quiz-players")


def main(base, shots, game, photo):
    os.makedirs(shots, exist_ok=True)
    phones = []
    try:
        phones = [Phone("ann", base, shots), Phone("bo", base, shots, dark=True)]
        if game == "quiz":
            phones.append(Phone("cy", base, shots))
            code, rematch, players = quiz(*phones, photo)
            result = {"game": code, "rematch": rematch, "players": players}
        elif game == "wordgame":
            code, players = word_game(*phones)
            result = {"game": code, "players": players}
        else:
            code, board = play(*phones)
            result = {"game": code, "board": board}
        for phone in phones:
            # The server has no places: /places/map answers 503, as it should, and the browser reports
            # every failed request itself.
            errors = [entry for entry in phone.driver.get_log("browser")
                      if entry.get("level") == "SEVERE" and "WebSocket connection" not in entry.get("message", "")
                      and not ("/places" in entry.get("message", "") and "503" in entry.get("message", ""))]
            check(not errors, f"{phone.name}: console errors {errors}")
        print(json.dumps({"ok": True, **result}, ensure_ascii=False))
    finally:
        for phone in phones:
            phone.quit()


if __name__ == "__main__":
    main(sys.argv[1].rstrip("/"), sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else "tictactoe",
         sys.argv[4] if len(sys.argv) > 4 else None)
