"""The host removes a player in the browser client, through the shell every game page shares
(js/shell.js): Ann starts a tic-tac-toe game, Bo joins by the join link, Ann (the host) opens "Remove a
player…" and removes Bo mid-game. Bo's phone says so and goes on watching; the board is cleared and the
game waits for a second player. Bo, not the host, never sees the button.

Usage: browser_kick.py HTTP_URL SCREENSHOT_DIR. Exits non-zero on any surprise. Needs what
browser_client.py needs."""
import json
import os
import sys

from selenium.webdriver.common.by import By

from browser_client import Phone, check
from browser_tictactoe import start_game


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


def main(base, shots):
    os.makedirs(shots, exist_ok=True)
    phones = []
    try:
        phones = [Phone("ann", base, shots), Phone("bo", base, shots, dark=True)]
        code, board = play(*phones)
        for phone in phones:
            errors = [entry for entry in phone.driver.get_log("browser")
                      if entry.get("level") == "SEVERE" and "WebSocket connection" not in entry.get("message", "")]
            check(not errors, f"{phone.name}: console errors {errors}")
        print(json.dumps({"ok": True, "game": code, "board": board}, ensure_ascii=False))
    finally:
        for phone in phones:
            phone.quit()


if __name__ == "__main__":
    main(sys.argv[1].rstrip("/"), sys.argv[2])
