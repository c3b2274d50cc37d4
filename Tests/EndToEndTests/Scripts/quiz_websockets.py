"""Plays a photo quiz through Python's `websockets`, an implementation Parlor did not write: three players
upload real JPEGs over HTTP, play both photos to the standings while a spectator watches, and every frame
each of them received before a reveal is scanned for its answer. Usage: quiz_websockets.py WS_URL
PHOTO_DIR, the directory holding paris.jpg and sydney.jpg (with their GPS positions and dates as PHOTOS
says) and nogps.jpg. The server must read places from a file naming Paris and Sydney. Exits non-zero on
any surprise."""
import asyncio
import json
import sys
import urllib.error
import urllib.request

import websockets

from parlor_client import Client, check


def jpeg(directory, name):
    with open(f"{directory}/{name}.jpg", "rb") as file:
        return file.read()


def http(base, method, path, body=None, token=None, content_type="image/jpeg"):
    """(status, body bytes); an error status is an answer, not an exception."""
    request = urllib.request.Request(base + path, data=body, method=method)
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    if body is not None:
        request.add_header("Content-Type", content_type)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def error_code(body):
    return json.loads(body)["error"]["code"]


# Each photo: who uploads it, where it was taken, and the guesses at it with their haversine distances
# and points worked out by hand (R = 6371.0088 km, round(5000·e^(−d/1492.7))).
PHOTOS = {
    "paris": {"uploader": "ann", "at": (48.8566, 2.3522), "taken": "2024:06:14 09:30:00", "city": "Paris", "country": "France",
              "date": "Jun 14, 2024", "guesses": {"bo": (51.5074, -0.1278, 343.5565, 3972), "cy": (48.8566, 2.3522, 0.0, 5000)}},
    "sydney": {"uploader": "bo", "at": (-33.8688, 151.2093), "taken": None, "city": "Sydney", "country": "Australia",
               "date": "Date unknown", "guesses": {"ann": (-37.8136, 144.9631, 713.4285, 3100)}},
}
SECRETS = ['"city"', '"country"', '"displayDate"', '"coordinate"', '"distanceKm"', "48.85", "-33.86", "Paris", "Sydney"]


async def main(url, photos):
    base = "http" + url[2:].rsplit("/ws", 1)[0]
    async with websockets.connect(url) as a, websockets.connect(url) as b, websockets.connect(url) as c, \
            websockets.connect(url) as w:
        clients = {"ann": Client(a), "bo": Client(b), "cy": Client(c)}
        watcher = Client(w)
        ids, tokens = {}, {}
        for name, client in clients.items():
            hello = await client.call("hello")
            ids[name], tokens[name] = hello["userId"], hello["token"]
        ann, bo = clients["ann"], clients["bo"]

        created = await ann.call("createQuiz", playerName="Ann", revealSpeed="slow", timerDuration=120, sessionLength="5")
        quiz = created["quiz"]
        code = quiz["code"]
        check(created["currentUserId"] == ids["ann"] and quiz["hostId"] == ids["ann"] and quiz["phase"] == "waiting", f"created {quiz}")
        error = await ann.refused("createQuiz", playerName="Ann", timerDuration=5)
        check(error["code"] == "INVALID_INPUT" and "timerDuration" in error["message"], f"{error}")
        await bo.call("joinQuiz", code=code, playerName="Bo")
        await clients["cy"].call("joinQuiz", code=code, playerName="Cy")

        # Photos go up over HTTP; the answer names the photo, its album and date, never the place.
        photo_names = {}
        for name, photo in PHOTOS.items():
            status, body = await asyncio.to_thread(
                http, base, "POST", f"/quizzes/{code}/photos?album=Trip", jpeg(photos, name), tokens[photo["uploader"]])
            check(status == 201, f"upload {name}: {status} {body!r}")
            result = json.loads(body)
            check(set(result) == {"photoId", "album", "takenAt"} and result["album"] == "Trip", f"upload {name}: {result}")
            photo_names[result["photoId"]] = name
        status, body = await asyncio.to_thread(http, base, "POST", f"/quizzes/{code}/photos", jpeg(photos, "nogps"), tokens["cy"])
        check(status == 422 and error_code(body) == "NO_LOCATION", f"without GPS: {status} {body!r}")
        status, body = await asyncio.to_thread(http, base, "POST", f"/quizzes/{code}/photos", b"GIF89a not a photo", tokens["cy"], "image/gif")
        check(status == 415 and error_code(body) == "NOT_JPEG", f"not a JPEG: {status} {body!r}")

        sub = (await watcher.call("observeQuiz", code=code))["subscription"]
        first = await watcher.event(sub)
        check(first["event"] == "quiz" and first["data"]["uploadCount"] == 2, f"first event {first}")
        view = await ann.call("startQuiz", code=code)
        check(view["phase"] == "revealing" and view["photoCount"] == 2 and view["answer"] is None, f"started {view}")

        scores = {name: 0 for name in clients}
        everyone = list(clients.values()) + [watcher]
        for round_number in range(2):
            photo_id = view["currentPhoto"]["photoId"]
            name = photo_names[photo_id]
            photo = PHOTOS[name]
            check(view["currentPhoto"]["uploadedBy"] == ids[photo["uploader"]], f"uploader of {name}")
            round_start = [len(client.frames) for client in everyone]

            # A tile that has appeared is served, one that has not is refused (unless it appears between
            # reading the view and asking, which a newer view then shows), the whole photo is refused.
            shown = view["currentPhoto"]["revealedTiles"]
            status, body = await asyncio.to_thread(http, base, "GET", f"/quizzes/{code}/photos/{photo_id}/tiles/{shown[0]}")
            check(status == 200 and body[:3] == b"\xff\xd8\xff" and b"Exif" not in body, f"tile {shown[0]}: {status}")
            refused = False
            for tile in [n for n in range(36) if n not in shown]:
                status, body = await asyncio.to_thread(http, base, "GET", f"/quizzes/{code}/photos/{photo_id}/tiles/{tile}")
                if status == 403:
                    check(error_code(body) == "TILE_HIDDEN", f"hidden tile: {body!r}")
                    refused = True
                    break
                now = await watcher.call("getQuiz", code=code)
                check(status == 200 and tile in now["currentPhoto"]["revealedTiles"], f"tile {tile} served before it appeared")
            check(refused, "no tile was ever refused")
            status, body = await asyncio.to_thread(http, base, "GET", f"/quizzes/{code}/photos/{photo_id}")
            check(status == 403 and error_code(body) == "PHOTO_HIDDEN", f"whole photo before the reveal: {status}")

            error = await clients[photo["uploader"]].refused("submitGuess", code=code, latitude=0, longitude=0)
            check(error["code"] == "OWN_PHOTO" and error["status"] == "permission-denied", f"{error}")
            guessers = list(photo["guesses"].items())
            before = None
            for index, (guesser, guess) in enumerate(guessers):
                before = [len(client.frames) for client in everyone]
                view = await clients[guesser].call("submitGuess", code=code, latitude=guess[0], longitude=guess[1])
            if view["phase"] != "revealed":
                # Not everyone guessed: the host reveals.
                check(len(guessers) < 2 and view["phase"] == "revealing", f"{name}: {view['phase']}")
                error = await bo.refused("reveal", code=code)
                check(error["code"] == "NOT_HOST", f"{error}")
                before = [len(client.frames) for client in everyone]
                view = await ann.call("reveal", code=code)
            check(view["phase"] == "revealed", f"{name} revealed: {view['phase']}")

            answer = view["answer"]
            check(answer["city"] == photo["city"] and answer["country"] == photo["country"], f"{name}: {answer}")
            check(answer["displayDate"] == photo["date"] and answer["isOffline"] is False, f"{name}: {answer}")
            check(abs(answer["coordinate"]["latitude"] - photo["at"][0]) < 1e-3, f"{name}: {answer}")
            check(len(view["guesses"]) == len(guessers), f"{name}: {view['guesses']}")
            for guesser, guess in guessers:
                scored = next(g for g in view["guesses"] if g["playerId"] == ids[guesser])
                check(abs(scored["distanceKm"] - guess[2]) < 0.01 and scored["points"] == guess[3], f"{name}, {guesser}: {scored}")
                scores[guesser] += guess[3]
            for player in view["players"]:
                who = next(n for n, i in ids.items() if i == player["id"])
                check(player["score"] == scores[who], f"{who}: {player}")
            status, body = await asyncio.to_thread(http, base, "GET", f"/quizzes/{code}/photos/{photo_id}")
            check(status == 200 and b"Exif" not in body, f"whole photo after the reveal: {status}")

            # Nothing anyone received in this round before the reveal holds the answer or a distance.
            for client, start, end in zip(everyone, round_start, before):
                for frame in client.frames[start:end]:
                    for secret in SECRETS:
                        check(secret not in frame, f"{name}: a frame before the reveal holds {secret}: {frame[:200]}")
            while True:
                event = await watcher.event(sub)
                if event["data"]["version"] >= view["version"]:
                    check(event["data"]["answer"]["city"] == photo["city"], "the watcher sees the reveal")
                    break

            if round_number == 0:
                view = await ann.call("nextPhoto", code=code)
                check(view["phase"] == "revealing" and view["photoIndex"] == 1 and view["answer"] is None, f"next {view}")

        done = await ann.call("nextPhoto", code=code)
        check(done["phase"] == "complete" and done["currentPhoto"] is None, f"complete {done['phase']}")
        standings = [(s["rank"], s["name"], s["score"]) for s in done["standings"]]
        check(standings == [(1, "Cy", 5000), (2, "Bo", 3972), (3, "Ann", 3100)], f"standings {standings}")
        print(json.dumps({"ok": True, "quiz": code, "standings": standings}))


asyncio.run(main(sys.argv[1], sys.argv[2]))
