"""Writes a small v1 data directory with the parlor-server of commit 9ce5498 (schema v1), for the
v1 → v2 migration test. Usage: make_v1_fixture.py WS_URL OUT_JSON. Leaves behind, in the server's
data directory: two live rooms (one open, one started with scores), one finished game whose room
is still live, one finished game whose room was deleted (history only), an open lobby after a
finished round, a lobby with a round running, the starter catalog and the token secret."""
import asyncio, json, sys
import websockets

class Client:
    def __init__(self, ws):
        self.ws, self.next_id = ws, 0
    async def call(self, op, **args):
        self.next_id += 1
        rid = self.next_id
        await self.ws.send(json.dumps({"id": rid, "op": op, "args": args}))
        while True:
            frame = json.loads(await asyncio.wait_for(self.ws.recv(), 60))
            if frame.get("id") == rid:
                if "error" in frame:
                    raise AssertionError(f"{op} {args} failed: {frame['error']}")
                return frame["result"]

async def finished_room(ann, bo, ann_id, bo_id):
    room = (await ann.call("createRoom", pointLimit=100, pointValue=25, playerCount=2, playerName="Ann"))["room"]
    code = room["id"]
    await bo.call("joinRoom", code=code, playerName="Bo")
    await bo.call("setReady", roomCode=code, playerId=bo_id, ready=True)
    await ann.call("startGame", roomCode=code)
    await ann.call("submitScore", roomCode=code, playerId=ann_id, round=1, score=30)
    await bo.call("submitScore", roomCode=code, playerId=bo_id, round=1, score=120)
    done = await ann.call("nextRound", roomCode=code)
    assert done["isFinished"], done
    return code

async def main(url, out):
    async with websockets.connect(url) as a, websockets.connect(url) as b:
        ann, bo = Client(a), Client(b)
        hello_ann = await ann.call("hello")
        hello_bo = await bo.call("hello")
        ann_id, bo_id = hello_ann["userId"], hello_bo["userId"]

        open_room = (await ann.call("createRoom", pointLimit=201, pointValue=10, playerCount=4, playerName="Ann"))["room"]["id"]
        await bo.call("joinRoom", code=open_room, playerName="Bo")

        started = (await ann.call("createRoom", pointLimit=350, pointValue=5, playerCount=3, playerName="Ann"))["room"]["id"]
        await bo.call("joinRoom", code=started, playerName="Bo")
        await bo.call("setReady", roomCode=started, playerId=bo_id, ready=True)
        await ann.call("startGame", roomCode=started)
        await ann.call("submitScore", roomCode=started, playerId=ann_id, round=1, score=40)
        started_room = await bo.call("submitScore", roomCode=started, playerId=bo_id, round=1, score=15)

        finished_live = await finished_room(ann, bo, ann_id, bo_id)
        finished_gone = await finished_room(ann, bo, ann_id, bo_id)
        await bo.call("leaveRoom", roomCode=finished_gone, playerId=bo_id)
        await ann.call("leaveRoom", roomCode=finished_gone, playerId=ann_id)

        user = lambda name, c, e: {"username": name, "colorNumber": c, "emojiNumber": e}
        played = await ann.call("createLobby", user=user("Ann", 2, 4))
        await bo.call("joinLobby", lobbyCode=played["lobbyCode"], user=user("Bo", 5, 9))
        await ann.call("startGame", lobbyId=played["lobbyId"], gameId="word-lightning-start-p")
        await ann.call("submitWord", lobbyId=played["lobbyId"], word="pirate")
        await bo.call("submitWord", lobbyId=played["lobbyId"], word="parrot")
        await asyncio.sleep(31)  # the 30 s round ends on the server's clock

        running = await bo.call("createLobby", user=user("Bo", 1, 1))
        await ann.call("joinLobby", lobbyCode=running["lobbyCode"], user=user("Ann", 3, 3))
        await bo.call("startGame", lobbyId=running["lobbyId"], gameId="category-us-states")
        await ann.call("submitWord", lobbyId=running["lobbyId"], word="Texas")
        json.dump({
            "ann": {"userId": ann_id, "token": hello_ann["token"]},
            "bo": {"userId": bo_id, "token": hello_bo["token"]},
            "rooms": {"open": open_room, "started": started, "finishedLive": finished_live,
                      "finishedGone": finished_gone},
            "startedRoomVersion": started_room["version"],
            "lobbies": {"played": played, "running": running},
        }, open(out, "w"), indent=2, sort_keys=True)

asyncio.run(main(sys.argv[1], sys.argv[2]))
