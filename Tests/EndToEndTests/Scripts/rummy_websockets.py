"""Plays a rummy room from create to settlement through Python's `websockets`, an implementation Parlor
did not write. Usage: rummy_websockets.py WS_URL (deflate|plain). Exits non-zero on any surprise."""
import asyncio
import json
import sys

import websockets

from parlor_client import Client, check


async def main(url, mode):
    compression = "deflate" if mode == "deflate" else None
    async with websockets.connect(url, compression=compression) as a, \
            websockets.connect(url, compression=compression) as b, \
            websockets.connect(url, compression=compression) as c:
        negotiated = a.response.headers.get("Sec-WebSocket-Extensions")
        check((negotiated is not None) == (mode == "deflate"), f"extensions negotiated: {negotiated!r}")
        ann, bo, cy = Client(a), Client(b), Client(c)
        ann_id = (await ann.call("hello"))["userId"]
        bo_id = (await bo.call("hello"))["userId"]
        cy_id = (await cy.call("hello"))["userId"]

        created = await ann.call("createRoom", pointLimit=150, pointValue=25, playerCount=3, playerName="Ann")
        code = created["room"]["id"]
        check(created["currentUserId"] == ann_id, "currentUserId is the caller")
        sub = (await cy.call("observeRoom", code=code))["subscription"]
        first = await cy.event(sub)
        check(first["event"] == "room" and first["data"]["version"] == 1, f"first event {first}")

        await bo.call("joinRoom", code=code, playerName="Bo")
        await cy.call("joinRoom", code=code, playerName="Cy")
        await bo.call("setReady", roomCode=code, playerId=bo_id, ready=True)
        await cy.call("setReady", roomCode=code, playerId=cy_id, ready=True)
        room = await ann.call("startGame", roomCode=code)
        check(room["isStarted"] and room["currentRound"] == 1, "started")

        # Round 1, then round 2 ends the game: Bo passes the 150-point limit.
        for who, me, score in ((ann, ann_id, 20), (bo, bo_id, 90), (cy, cy_id, 45)):
            await who.call("submitScore", roomCode=code, playerId=me, round=1, score=score)
        await ann.call("nextRound", roomCode=code)
        for who, me, score in ((ann, ann_id, 5), (bo, bo_id, 70), (cy, cy_id, 30)):
            await who.call("submitScore", roomCode=code, playerId=me, round=2, score=score)
        final = await ann.call("nextRound", roomCode=code)
        check(final["isFinished"], "finished")
        results = final["results"]
        check(results["winnerId"] == ann_id, "lowest total wins")
        debts = {(d["from"], d["to"]): d["amount"] for d in results["settlement"]}
        # Bo 160 - Ann 25 = 135 points; Cy 75 - 25 = 50 points; 25 cents a point.
        check(debts == {(bo_id, ann_id): 3375, (cy_id, ann_id): 1250}, f"settlement {debts}")

        # The observer's last event is the finished room, versions strictly increasing on the way.
        versions = [first["data"]["version"]]
        while versions[-1] < final["version"]:
            versions.append((await cy.event(sub))["data"]["version"])
        check(versions == sorted(set(versions)), f"versions {versions}")

        # Everyone leaves; the observer sees null, then end.
        for who, me in ((bo, bo_id), (cy, cy_id), (ann, ann_id)):
            await who.call("leaveRoom", roomCode=code, playerId=me)
        while True:
            event = await cy.event(sub)
            if event["event"] == "room" and event["data"] is None:
                break
        check((await cy.event(sub))["event"] == "end", "end after null")
        print(json.dumps({"ok": True, "mode": mode, "room": code, "settlement": sorted(debts.values())}))


asyncio.run(main(sys.argv[1], sys.argv[2]))
