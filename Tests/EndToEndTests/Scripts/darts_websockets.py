"""Plays a 501 darts match through Python's `websockets`, an implementation Parlor did not write: two
players, a guest the host scores for, and an anonymous spectator. Usage: darts_websockets.py WS_URL
(deflate|plain). Exits non-zero on any surprise."""
import asyncio
import json
import sys

import websockets

from parlor_client import Client, check


def seat(match, player_id):
    return next(p for p in match["players"] if p["id"] == player_id)


async def main(url, mode):
    compression = "deflate" if mode == "deflate" else None
    async with websockets.connect(url, compression=compression) as a, \
            websockets.connect(url, compression=compression) as b, \
            websockets.connect(url, compression=compression) as c:
        ann, bo, watcher = Client(a), Client(b), Client(c)
        ann_id = (await ann.call("hello"))["userId"]
        bo_id = (await bo.call("hello"))["userId"]

        created = await ann.call("createMatch", gameType="501", playerName="Ann")
        match, code = created["match"], created["match"]["id"]
        check(created["currentUserId"] == ann_id and match["hostId"] == ann_id, "the creator hosts")
        check(len(code) == 5 and match["status"] == "waiting" and match["outRule"] == "double", f"created {match}")
        await bo.call("joinMatch", code=code, playerName="Bo")
        guest = (await ann.call("addGuest", code=code, name="Gil"))["players"][2]
        check(guest["isGuest"] and guest["name"] == "Gil", f"guest {guest}")
        gil_id = guest["id"]

        # The spectator never signs in.
        sub = (await watcher.call("observeMatch", code=code))["subscription"]
        first = await watcher.event(sub)
        check(first["event"] == "match" and first["data"]["version"] == 3, f"first event {first}")
        match = await ann.call("startMatch", code=code)
        check(match["currentPlayerId"] == ann_id, "the host throws first")

        error = await bo.refused("recordVisit", code=code, playerId=bo_id, darts=["T20", "T20", "T20"])
        check(error["code"] == "NOT_YOUR_TURN" and error["status"] == "failed-precondition", f"{error}")
        error = await ann.refused("recordVisit", code=code, playerId=ann_id, darts=["T20", "T21", "T20"])
        check(error["code"] == "INVALID_DARTS" and "T21" in error["message"], f"{error}")

        # Ann throws a nine-darter; Bo enters totals; the host enters Gil's visits.
        for ann_darts, bo_total, gil_darts in ((["T20"] * 3, 60, ["S20", "S1", "S5"]), (["T20"] * 3, 100, ["M", "M", "M"])):
            await ann.call("recordVisit", code=code, playerId=ann_id, darts=ann_darts)
            await bo.call("recordVisit", code=code, playerId=bo_id, total=bo_total)
            match = await ann.call("recordVisit", code=code, playerId=gil_id, darts=gil_darts)
        check(seat(match, ann_id)["remaining"] == 141 and match["checkout"] == ["T20", "T19", "D12"], f"on 141: {match}")
        check(seat(match, bo_id)["remaining"] == 341 and seat(match, gil_id)["remaining"] == 475, "scores")
        # A typo, corrected: the last visit is replaced.
        await ann.call("recordVisit", code=code, playerId=ann_id, darts=["T20", "T19", "D11"])
        match = await ann.call("editLastVisit", code=code, visit=7, darts=["T20", "T19", "D12"])
        check(match["status"] == "finished" and match["winnerId"] == ann_id, f"finished {match}")
        stats = seat(match, ann_id)["stats"]
        check(stats["threeDartAverage"] == 167 and stats["count180"] == 2 and stats["highestCheckout"] == 141, f"{stats}")

        versions = [first["data"]["version"]]
        while versions[-1] < match["version"]:
            versions.append((await watcher.event(sub))["data"]["version"])
        check(versions == list(range(versions[0], match["version"] + 1)), f"versions {versions}")

        record = (await bo.call("listMatches"))["matches"][0]
        check(record["game_type"] == "501" and record["winner_id"] == ann_id, f"history {record}")
        check([p.get("player_id") for p in record["players"]] == [ann_id, bo_id, None], f"players {record['players']}")
        check((await ann.call("checkout", score=170, darts=3))["darts"] == ["T20", "T20", "DB"], "checkout 170")
        print(json.dumps({"ok": True, "mode": mode, "match": code, "versions": len(versions), "average": stats["threeDartAverage"]}))


asyncio.run(main(sys.argv[1], sys.argv[2]))
