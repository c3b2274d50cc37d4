"""Who may join and watch a game, through Python's `websockets` against the real server: for a darts
match and a rummy room, a private game joined with the host's invitation only, a lock that keeps new
players out but lets a seated one back, and spectators refused. Usage: access_websockets.py WS_URL.
Exits non-zero on any surprise."""
import asyncio
import json
import sys

import websockets

from parlor_client import Client, check

KINDS = {
    "darts": ("createMatch", {"gameType": "301", "playerName": "Ann"}, lambda r: r["match"]["id"],
              "joinMatch", lambda code: {"code": code, "playerName": "Bo"}, "observeMatch"),
    "rummy": ("createRoom", {"pointLimit": 100, "pointValue": 25, "playerCount": 4, "playerName": "Ann"},
              lambda r: r["room"]["id"], "joinRoom", lambda code: {"code": code, "playerName": "Bo"}, "observeRoom"),
}


async def play(kind, url):
    create, create_args, code_of, join, join_args, observe = KINDS[kind]
    async with websockets.connect(url) as a, websockets.connect(url) as b, websockets.connect(url) as c:
        ann, bo, cy = Client(a), Client(b), Client(c)
        ann_id = (await ann.call("hello"))["userId"]
        bo_hello = await bo.call("hello")
        await cy.call("hello")

        code = code_of(await ann.call(create, **create_args, private=True, spectators="none"))
        error = await bo.refused(join, **join_args(code))
        check(error["code"] == "NOT_INVITED" and error["status"] == "permission-denied", f"{kind}: {error}")
        error = await bo.refused(join, **join_args(code), invite="i1.9999999999.bm90IGEgc2lnbmF0dXJl")
        check(error["code"] == "NOT_INVITED", f"{kind}: {error}")
        invite = await ann.call("createInvite", code=code, ttlSeconds=600)
        check(invite["link"] == f"/join/{code}?invite={invite['invite']}", f"{kind}: {invite}")
        await bo.call(join, **join_args(code), invite=invite["invite"])

        error = await cy.refused(observe, code=code)
        check(error["code"] == "SPECTATORS_NOT_ALLOWED", f"{kind}: {error}")
        error = await bo.refused("lockGame", code=code)
        check(error["code"] == "NOT_HOST", f"{kind}: {error}")
        access = await ann.call("lockGame", code=code)
        check(access == {"kind": kind, "code": code, "private": True, "locked": True, "spectators": "none", "host": ann_id},
              f"{kind}: {access}")
        error = await cy.refused(join, **join_args(code), invite=invite["invite"])
        check(error["code"] == "GAME_LOCKED", f"{kind}: {error}")

    # Bo comes back on a new connection, with his token and no invitation: still seated.
    async with websockets.connect(url) as b:
        bo = Client(b)
        await bo.call("hello", token=bo_hello["token"])
        await bo.call(join, **join_args(code))
        await bo.call(observe, code=code)
    return {"kind": kind, "code": code}


async def main(url):
    played = [await play(kind, url) for kind in KINDS]
    print(json.dumps({"ok": True, "played": played}))


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
