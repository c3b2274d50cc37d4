"""The replay page (/replay/CODE) in headless Chromium, for a word match played over the wire: Ann and Bo
play a one-round match through Python's `websockets` (Ann writes "gamma", Bo "omega"; the round ends on
the server's clock). Then:
- Cy, who did not play, opens /replay/CODE and steps through it with the → button: each step shows the
  record's step number, actor and scores, as the record (read over the wire by Cy) says; before the
  round's results nobody's word is on the page, nor in any step before the reveal that reached the page
  (every WebSocket frame the page received is kept and scanned), and at the reveal both are. Playing at
  ×4 runs on to the last step by itself.
- Ann, signed in as herself (her token), finds the match in "Your games" on home, follows its Replay
  link, and sees her own word during the round — and not Bo's.
- A code with no record says so.
- A tic-tac-toe game, another kind through the same page, shows each step's board as the record has it.
- A one-photo quiz (Ann's photo, taken in Paris; Bo guesses): its place is neither on the page nor in
  any step that reached it before the reveal's step, and is on the page from that step on.

Usage: browser_replay.py HTTP_URL SCREENSHOT_DIR PHOTO (a JPEG taken at 48.8566 N, 2.3522 E). Exits non-zero on any surprise. Needs what
browser_client.py needs, and Python's websockets."""
import asyncio
import json
import os
import sys
import urllib.request

import websockets
from selenium.webdriver.common.by import By

from browser_client import Phone, check
from parlor_client import Client

WORDS = {"ann": "gamma", "bo": "omega"}

# Kept before any script of the page runs: every text frame the page's WebSocket receives.
RECORD_FRAMES = """
(() => {
  window.__frames = [];
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", (event) => window.__frames.push(String(event.data)));
    }
  };
})();
"""


async def play(ws_url):
    """Plays the match: its code, Ann's token, and the record as Cy (not a player) reads it."""
    async with websockets.connect(ws_url) as a, websockets.connect(ws_url) as b, websockets.connect(ws_url) as c:
        ann, bo, cy = Client(a), Client(b), Client(c)
        hellos = {name: await client.call("hello") for name, client in (("ann", ann), ("bo", bo), ("cy", cy))}
        created = await ann.call("createLobby", user={"username": "Ann", "colorNumber": 1, "emojiNumber": 1}, rounds=1)
        lobby_id, code = created["lobbyId"], created["lobbyCode"]
        await bo.call("joinLobby", lobbyCode=code, user={"username": "Bo", "colorNumber": 2, "emojiNumber": 2})
        sub = (await ann.call("observeLobby", lobbyId=lobby_id))["subscription"]
        await ann.call("startGame", lobbyId=lobby_id, gameId="greek-letters")
        for name, client in (("ann", ann), ("bo", bo)):
            verdict = await client.call("submitWord", lobbyId=lobby_id, word=WORDS[name])
            check(verdict["accepted"], f"{name}'s word: {verdict}")
        while True:
            event = await asyncio.wait_for(ann.event(sub), 60)
            if event.get("event") == "lobby" and event["data"].get("status") == "FINISHED":
                break
        initial, steps = await record(cy, code)

        board = (await ann.call("createTicTacToe", playerName="Ann"))["ticTacToe"]["code"]
        await bo.call("joinTicTacToe", code=board, playerName="Bo")
        for client, cell in ((ann, 4), (bo, 0), (ann, 2), (bo, 6), (ann, 3), (bo, 5), (ann, 1), (bo, 7), (ann, 8)):
            await client.call("placeMark", code=board, cell=cell)
        _, board_steps = await record(cy, board)
        return code, hellos["ann"]["token"], initial, steps, (board, board_steps)


async def play_quiz(ws_url, base, photo):
    """A one-photo quiz: Ann uploads it, Bo guesses London once some tiles are out. Its code and record
    as Cy reads it."""
    async with websockets.connect(ws_url) as a, websockets.connect(ws_url) as b, websockets.connect(ws_url) as c:
        ann, bo, cy = Client(a), Client(b), Client(c)
        token = (await ann.call("hello"))["token"]
        await bo.call("hello")
        await cy.call("hello")
        code = (await ann.call("createQuiz", playerName="Ann", revealSpeed="fast", timerDuration=10, sessionLength="5"))["quiz"]["code"]
        await bo.call("joinQuiz", code=code, playerName="Bo")
        with open(photo, "rb") as file:
            upload = urllib.request.Request(f"{base}/quizzes/{code}/photos", data=file.read(), method="POST")
        upload.add_header("Authorization", f"Bearer {token}")
        upload.add_header("Content-Type", "image/jpeg")
        await asyncio.to_thread(lambda: urllib.request.urlopen(upload, timeout=30).read())
        await ann.call("startQuiz", code=code)
        # Some tiles come out on the server's clock before the guess.
        await asyncio.sleep(1.5)
        view = await bo.call("submitGuess", code=code, latitude=51.5074, longitude=-0.1278)
        if view["phase"] != "revealed":
            await ann.call("reveal", code=code)
        check((await ann.call("nextPhoto", code=code))["phase"] == "complete", "the quiz is over")
        _, steps = await record(cy, code)
        return code, steps


async def record(client, code):
    """The game's record as `client` reads it, in pages of 3 steps: its initial view and its steps."""
    steps, initial, start = [], None, 1
    while start is not None:
        page = await client.call("getGameRecord", code=code, **{"from": start}, limit=3)
        initial = initial or page.get("initial")
        steps += page["steps"]
        start = page.get("nextFrom")
    return initial, steps


def names(view):
    return {player["userId"]: player["username"] for player in view["players"]}


def shown_scores(phone):
    return phone.driver.execute_script("""
        return [...document.querySelectorAll('#players li')].map(li =>
            [li.querySelector('.name').textContent.replace(' (you)', ''), li.querySelector('.score').textContent]);""")


def expected_scores(view):
    return [[player["username"], str(player["score"])] for player in view["players"]]


def at_step(phone, index, total):
    phone.wait(lambda d: d.execute_script("return document.body.dataset.replayStep") == str(index), f"step {index}")
    label = phone.text("#replay-step")
    check(label == (f"Step {index} of {total}" if index else f"Start · {total} steps"), f"step {index}'s label: {label!r}")


def spectator(cy, code, steps):
    total = len(steps)
    cy.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": RECORD_FRAMES})
    cy.open(f"/replay/{code}")
    cy.wait_text("#replay-stage .eyebrow", "Replay · Watching a word game")
    at_step(cy, 0, total)
    check(cy.text("#lobby-code") == code, "the replay names its game")
    check(cy.find("#lobby").get_attribute("inert") is not None, "the game's page is inert in a replay")
    reveal = next(step["step"] for step in steps if step["view"].get("lastRound"))
    who = {**names(steps[-1]["view"]), None: "the clock"}
    for step in steps:
        index = step["step"]
        cy.click("#replay-forward")
        at_step(cy, index, total)
        view = step["view"]
        check(cy.text("#replay-actor") == who[step.get("actor")], f"step {index}'s actor: {cy.text('#replay-actor')!r}")
        check(shown_scores(cy) == expected_scores(view), f"step {index}'s scores: {shown_scores(cy)} vs {expected_scores(view)}")
        check(cy.exists("#game-name") == (view["status"] == "GAME"), f"step {index}: the round shows while it runs")
        body = cy.text("body").lower()
        if index < reveal:
            for word in WORDS.values():
                check(word not in body, f"step {index}, before the reveal (step {reveal}): {word!r} is on the page")
            check(not cy.exists("#my-words") and not cy.exists("#round-results"), f"step {index}: no words before the reveal")
        if index == reveal - 1:
            cy.shot("r01-round-before-reveal")
    results = cy.text("#round-results").lower()
    check(all(word in results for word in WORDS.values()), f"the reveal shows both words: {results!r}")
    cy.shot("r02-reveal")

    # What reached the page: no step before the reveal carries a player's word.
    frames = cy.driver.execute_script("return window.__frames")
    replies = [json.loads(frame) for frame in frames if '"steps"' in frame]
    received = [step for reply in replies for step in reply.get("result", {}).get("steps", [])]
    check(len(received) == total, f"the page read every step once: {len(received)} of {total}")
    for step in received:
        text = json.dumps(step).lower()
        early = [word for word in WORDS.values() if word in text]
        check(step["step"] >= reveal or not early, f"step {step['step']} reached the page with {early} before the reveal")
    check(all(word in json.dumps(received).lower() for word in WORDS.values()), "the reveal's step carries the words")

    # Home, then play from the start at ×4: the page steps on by itself to the end.
    cy.click("#replay-first")
    at_step(cy, 0, total)
    cy.select("#replay-speed", "4")
    cy.driver.execute_script("""
        window.__shown = [];
        new MutationObserver(() => window.__shown.push(document.body.dataset.replayStep))
          .observe(document.body, { attributes: true, attributeFilter: ["data-replay-step"] });""")
    cy.click("#replay-play")
    cy.wait(lambda d: d.execute_script("return document.body.dataset.replayStep") == str(total), "playing to the end", timeout=30)
    cy.wait(lambda d: cy.text("#replay-play") == "Play", "the end pauses")
    shown = cy.driver.execute_script("return window.__shown")
    check(shown == [str(index) for index in range(1, total + 1)], f"playing shows every step in order: {shown}")

    # A code with no record says so, in the server's words.
    cy.open("/replay/QQQQ")
    cy.wait(lambda d: cy.exists("#replay-missing"), "the missing record")
    missing = cy.find("#replay-missing")
    check(missing.get_attribute("data-code") == "RECORD_NOT_AVAILABLE", f"the missing record's code: {missing.get_attribute('data-code')}")
    check("finished before this server kept records" in missing.text, f"it says why: {missing.text!r}")
    return reveal


def boards(cy, code, steps):
    """Steps through a tic-tac-toe game: each step's board, and its outcome at the end."""
    cy.open(f"/replay/{code}")
    cy.wait_text("#replay-stage .eyebrow", "Replay · Watching tic-tac-toe")
    at_step(cy, 0, len(steps))
    for step in steps:
        cy.click("#replay-forward")
        at_step(cy, step["step"], len(steps))
        shown = cy.driver.execute_script("return [...document.querySelectorAll('#ttt-board .ttt-cell')].map(cell => cell.textContent)")
        check(shown == step["view"]["board"], f"tic-tac-toe step {step['step']}: {shown} vs {step['view']['board']}")
    check(cy.text("#ttt-status") == "A draw.", f"the game's end: {cy.text('#ttt-status')!r}")
    cy.shot("r05-tictactoe")


def quiz(cy, code, steps):
    """Steps through the quiz: no place before the reveal's step, on the page or in what reached it
    (the frames kept by the script `spectator` added to Cy's pages)."""
    cy.open(f"/replay/{code}")
    cy.wait_text("#replay-stage .eyebrow", "Replay · Watching a photo quiz")
    reveal = next(step["step"] for step in steps if step["view"].get("answer"))
    answer = next(step["view"]["answer"] for step in steps if step["view"].get("answer"))
    place = answer.get("city") or "48.86° N"
    for step in steps:
        cy.click("#replay-forward")
        at_step(cy, step["step"], len(steps))
        body = cy.text("#replay-stage")
        if step["step"] < reveal:
            check(place not in body and "48.8" not in body, f"quiz step {step['step']}, before the reveal ({reveal}): the place is shown")
        elif step["step"] == reveal:
            check(place in body, f"the reveal's step shows {place!r}: {body[:400]!r}")
            cy.shot("r06-quiz-reveal")
    received = [step for frame in cy.driver.execute_script("return window.__frames") if '"steps"' in frame
                for step in json.loads(frame).get("result", {}).get("steps", [])]
    check(len(received) == len(steps), f"the page read every quiz step once: {len(received)} of {len(steps)}")
    for step in received:
        check(step["step"] >= reveal or "48.85" not in json.dumps(step), f"quiz step {step['step']} reached the page with the place")
    return reveal


def player(ann, code, token, steps, reveal):
    ann.open("/")
    ann.driver.execute_script("localStorage.setItem('parlor.token', arguments[0])", token)
    ann.open("/")
    ann.wait(lambda d: ann.exists(f"#history li[data-code='{code}']"), "the match in Your games")
    ann.shot("r03-history")
    ann.click(f"#history li[data-code='{code}'] .replay-link")
    ann.wait_text("#replay-stage .eyebrow", "Replay · Word game")
    check(ann.driver.execute_script("return location.pathname") == f"/replay/{code}", "the link is the replay's address")
    last_word = max(step["step"] for step in steps if step.get("actor") and step["view"]["status"] == "GAME")
    ann.click("#replay-last")
    at_step(ann, len(steps), len(steps))
    for _ in range(len(steps) - last_word):
        ann.click("#replay-back")
    at_step(ann, last_word, len(steps))
    check(last_word < reveal, "the last word comes before the reveal")
    ann.wait_text("#my-words", WORDS["ann"])
    check(WORDS["bo"] not in ann.text("body").lower(), "Ann sees her own word, not Bo's, before the reveal")
    check(ann.text("#replay-actor") in ("you", "Bo"), f"the actor of the last word: {ann.text('#replay-actor')!r}")
    ann.shot("r04-own-words")


def main(base, shots, photo):
    os.makedirs(shots, exist_ok=True)
    code, token, initial, steps, (board, board_steps) = asyncio.run(play("ws" + base[4:] + "/ws"))
    quiz_code, quiz_steps = asyncio.run(play_quiz("ws" + base[4:] + "/ws", base, photo))
    check(initial is not None and [step["step"] for step in steps] == list(range(1, len(steps) + 1)), "the record's steps")
    phones = []
    try:
        phones = [Phone("cy", base, shots), Phone("ann", base, shots, dark=True)]
        reveal = spectator(phones[0], code, steps)
        boards(phones[0], board, board_steps)
        quiz_reveal = quiz(phones[0], quiz_code, quiz_steps)
        player(phones[1], code, token, steps, reveal)
        for phone in phones:
            # This server has no list of places: the quiz's world map is refused (503), as in live play.
            errors = [entry for entry in phone.driver.get_log("browser")
                      if entry.get("level") == "SEVERE" and "WebSocket connection" not in entry.get("message", "")
                      and "/places/map" not in entry.get("message", "")]
            check(not errors, f"{phone.name}: console errors {errors}")
        print(json.dumps({"ok": True, "game": code, "steps": len(steps), "reveal": reveal,
                          "quiz": quiz_code, "quizSteps": len(quiz_steps), "quizReveal": quiz_reveal}))
    finally:
        for phone in phones:
            phone.quit()


if __name__ == "__main__":
    main(sys.argv[1].rstrip("/"), sys.argv[2], sys.argv[3])
