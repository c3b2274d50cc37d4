"""Who may join a game, in the browser client (js/access.js, the shell every game page shares): Ann
creates a private darts match from home, her Invite button makes an invitation whose link (and QR code)
she passes on; Cy, with the code but no invitation, is refused with the sentence for NOT_INVITED; Bo
opens the invitation's link (/join/CODE?invite=…) and is in. Ann locks the match: Bo's page says so
without asking, and Cy, now with the invitation's link, is refused with the sentence for GAME_LOCKED.
Last, Ann hands the host role to Bo, whose page then has the host's controls.

Usage: browser_access.py HTTP_URL SCREENSHOT_DIR. Exits non-zero on any surprise. Needs what
browser_client.py needs."""
import json
import os
import re
import sys
from urllib.parse import urlsplit

from selenium.webdriver.common.by import By

from browser_client import Phone, check
from browser_tictactoe import address

NOT_INVITED = "This game is private: join it with an invitation from its host."
GAME_LOCKED = "The host has locked this game: nobody else can join now."


def refused(phone, code, sentence):
    """`phone` presses Join and is told `sentence` (the error's code on the notice), staying home."""
    phone.click("#join")
    phone.wait_text("#notice", sentence)
    check(phone.notice_code() == code, f"{phone.name}: the notice carries {code}: {phone.notice_code()!r}")
    check(phone.exists("#join-form") and not phone.exists("#match-code"), f"{phone.name} stays home")


def private_match(ann, bo, cy):
    ann.open()
    ann.type("#name", "Ann")
    ann.click("#access-choices summary")
    ann.find("#create-private").click()
    ann.click("#create-match")
    ann.wait(lambda d: len(ann.text("#match-code")) == 5, "the match code")
    code = ann.text("#match-code")
    ann.wait_text("#access-state", "Private")
    check(ann.exists("#host-panel") and ann.text("#lock") == "Lock", "the host's controls")

    ann.click("#invite")
    ann.wait_text("#invite-join-link", f"/join/{code}?invite=")
    link = ann.text("#invite-join-link").strip()
    check(ann.exists("#invite-qr svg"), "the invitation's QR code")
    check(ann.text("#invite-share-panel").find("may join") >= 0, "the invitation says what it does")
    ann.shot("a01-invitation")
    target = urlsplit(link)
    path = target.path + "?" + target.query
    check(re.fullmatch(rf"/join/{code}\?invite=i1\.[0-9]+\.[A-Za-z0-9_-]+", path), f"an invitation's link: {path!r}")

    # Cy has the code, not the invitation.
    cy.open(f"/?code={code}")
    cy.type("#name", "Cy")
    refused(cy, "NOT_INVITED", NOT_INVITED)
    cy.shot("a02-not-invited")

    # Bo opens the invitation's link.
    bo.open(path)
    bo.wait_text("#invited", f"You are invited to {code}")
    bo.type("#name", "Bo")
    bo.click("#join")
    bo.wait_text("#match-code", code)
    check(address(bo) == f"/#{code}", f"Bo's address carries the code, not the invitation: {address(bo)!r}")
    ann.wait(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#players li")) == 2, "Bo seated")
    bo.wait_text("#access-state", "Private")
    check(not bo.exists("#host-panel"), "only the host invites and locks")

    # Ann locks the match: Bo's page is told, and the invitation no longer lets anyone in.
    ann.click("#lock")
    ann.wait(lambda d: ann.text("#lock") == "Unlock", "the lock toggled")
    bo.wait_text("#access-state", "Locked")
    bo.shot("a03-locked")
    cy.open(path)
    cy.wait_text("#invited", f"You are invited to {code}")
    cy.type("#name", "Cy")
    refused(cy, "GAME_LOCKED", GAME_LOCKED)

    # Ann hands the host role to Bo: his page gets the host's controls, hers loses them.
    ann.click("#hand-over-details summary")
    ann.select("#hand-over-to", bo_id(ann))
    ann.click("#hand-over")
    ann.driver.switch_to.alert.accept()
    ann.wait_text("#notice", "Bo is the host now.")
    bo.wait(lambda d: bo.exists("#host-panel") and bo.text("#lock") == "Unlock", "Bo hosts, the match still locked")
    ann.wait(lambda d: not ann.exists("#host-panel"), "Ann's controls gone")
    bo.shot("a04-handed-over")
    return code, ann.text("#access-state"), bo.text("#access-state")


def bo_id(ann):
    """Bo's id, from the one player the handover offers (Ann's own seat is not offered)."""
    options = ann.driver.find_elements(By.CSS_SELECTOR, "#hand-over-to option")
    check([o.text for o in options] == ["Bo"], f"the handover offers Bo alone: {[o.text for o in options]}")
    return options[0].get_attribute("value")


def main(base, shots):
    os.makedirs(shots, exist_ok=True)
    phones = []
    try:
        phones = [Phone("ann", base, shots), Phone("bo", base, shots, dark=True), Phone("cy", base, shots)]
        code, hosts, players = private_match(*phones)
        for phone in phones:
            errors = [entry for entry in phone.driver.get_log("browser")
                      if entry.get("level") == "SEVERE" and "WebSocket connection" not in entry.get("message", "")]
            check(not errors, f"{phone.name}: console errors {errors}")
        print(json.dumps({"ok": True, "game": code, "host": hosts, "player": players}, ensure_ascii=False))
    finally:
        for phone in phones:
            phone.quit()


if __name__ == "__main__":
    main(sys.argv[1].rstrip("/"), sys.argv[2])
