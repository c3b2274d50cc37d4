"""Plays tic-tac-toe, the fifth game, in the browser client (GET /) in two headless Chromium browsers:
Ann starts a game and the address carries its code (a reload lands back in it); Bo opens that address
and lands in the game, watching; Bo joins by the join link; they play to Ann's three in a row, with the
winning line marked on both phones; Bo's rematch takes both phones on to the next game.

Usage: browser_tictactoe.py HTTP_URL SCREENSHOT_DIR. Exits non-zero on any surprise. Needs what
browser_client.py needs."""
import json
import os
import re
import sys

from selenium.webdriver.common.by import By

from browser_client import Phone, check


def address(phone):
    return phone.driver.execute_script("return location.pathname + location.search + location.hash")


def start_game(ann):
    """Ann starts a game from home and waits for a second player: its code."""
    ann.open()
    ann.type("#name", "Ann")
    ann.click("#create-tictactoe")
    ann.wait(lambda d: re.fullmatch(r"[0-9]{7}", ann.text("#ttt-code")) is not None, "a 7-digit code")
    code = ann.text("#ttt-code")
    ann.wait_text("#ttt-status", "Waiting for a second player")
    return code


def play(ann, bo):
    code = start_game(ann)
    check(address(ann) == f"/#{code}", f"the address carries the code: {address(ann)!r}")
    ann.driver.refresh()
    ann.wait_text("#ttt-status", "Waiting for a second player")
    check(ann.text("#ttt-code") == code and ann.text(".eyebrow").lower() == "tic-tac-toe", "a reload lands back in the game, seated")
    ann.shot("t01-waiting")

    # The address, shared: Bo lands in the game, watching; then joins by the join link.
    bo.open(f"/#{code}")
    bo.wait_text(".eyebrow", "Watching tic-tac-toe")
    check(bo.text("#ttt-code") == code, "the shared address opens the game")
    bo.click("#leave")
    bo.find("#code")
    check(address(bo) == "/", f"home's address has no code: {address(bo)!r}")
    bo.open(f"/?code={code}")
    check(bo.find("#code").get_attribute("value") == code, "the join link fills in the code")
    bo.type("#name", "Bo")
    bo.click("#join")
    bo.wait_text(".eyebrow", "Tic-tac-toe")
    ann.wait_text("#ttt-status", "Your turn.")
    bo.wait_text("#ttt-status", "Ann to play.")
    check(not bo.find("#ttt-board [data-cell='4']").is_enabled(), "Bo's board waits for Ann")

    for phone, other, cell in ((ann, bo, 0), (bo, ann, 3), (ann, bo, 1), (bo, ann, 4)):
        phone.click(f"#ttt-board [data-cell='{cell}']")
        other.wait_text("#ttt-status", "Your turn.")
    ann.click("#ttt-board [data-cell='2']")
    for phone in (ann, bo):
        phone.wait_text("#ttt-status", "Ann wins!")
        won = [e.get_attribute("data-cell") for e in phone.driver.find_elements(By.CSS_SELECTOR, "#ttt-board .won")]
        check(won == ["0", "1", "2"], f"{phone.name}: the winning line is marked: {won}")
    board = [e.text for e in ann.driver.find_elements(By.CSS_SELECTOR, "#ttt-board .ttt-cell")]
    ann.shot("t02-won")

    bo.click("#rematch")
    for phone in (ann, bo):
        phone.wait(lambda d: re.fullmatch(r"[0-9]{7}", phone.text("#ttt-code")) is not None and phone.text("#ttt-code") != code,
                   f"{phone.name}: the rematch")
    rematch = ann.text("#ttt-code")
    for phone in (ann, bo):
        check(phone.text("#ttt-code") == rematch and address(phone) == f"/#{rematch}", f"{phone.name} is at the rematch, and so is the address")
        phone.wait_text(".eyebrow", "Tic-tac-toe")
        phone.wait(lambda d: phone.text("#ttt-status") in ("Your turn.", "Ann to play.", "Bo to play."), f"{phone.name}: the rematch is on")
    ann.shot("t03-rematch")
    return code, rematch, board


def main(base, shots):
    os.makedirs(shots, exist_ok=True)
    phones = []
    try:
        phones = [Phone("ann", base, shots), Phone("bo", base, shots, dark=True)]
        code, rematch, board = play(*phones)
        for phone in phones:
            errors = [entry for entry in phone.driver.get_log("browser")
                      if entry.get("level") == "SEVERE" and "WebSocket connection" not in entry.get("message", "")]
            check(not errors, f"{phone.name}: console errors {errors}")
        print(json.dumps({"ok": True, "game": code, "rematch": rematch, "board": board}, ensure_ascii=False))
    finally:
        for phone in phones:
            phone.quit()


if __name__ == "__main__":
    main(sys.argv[1].rstrip("/"), sys.argv[2])
