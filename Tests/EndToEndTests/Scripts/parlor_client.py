"""The JSON envelope over Python's `websockets`, shared by the interop scripts: requests with ids,
replies matched to them, and subscription events kept aside until asked for."""
import asyncio
import json


class Client:
    def __init__(self, ws):
        self.ws, self.next_id, self.events = ws, 0, []

    async def request(self, op, **args):
        """The reply frame to `op` (its `result` or its `error`)."""
        self.next_id += 1
        request_id = self.next_id
        await self.ws.send(json.dumps({"id": request_id, "op": op, "args": args}))
        while True:
            frame = json.loads(await asyncio.wait_for(self.ws.recv(), 10))
            if frame.get("id") == request_id:
                return frame
            self.events.append(frame)

    async def call(self, op, **args):
        """The result of `op`; an error reply fails the script."""
        frame = await self.request(op, **args)
        if "error" in frame:
            raise AssertionError(f"{op} failed: {frame['error']}")
        return frame["result"]

    async def refused(self, op, **args):
        """The error of `op`, which must fail."""
        frame = await self.request(op, **args)
        check("error" in frame, f"{op} should have failed: {frame}")
        return frame["error"]

    async def event(self, sub):
        """The next event of subscription `sub`."""
        for i, frame in enumerate(self.events):
            if frame.get("sub") == sub:
                return self.events.pop(i)
        while True:
            frame = json.loads(await asyncio.wait_for(self.ws.recv(), 10))
            if frame.get("sub") == sub:
                return frame
            self.events.append(frame)


def check(condition, what):
    if not condition:
        raise AssertionError(what)
