// Rummy tables, as the browser offers them: the code's shape, the settings and the button that start a
// table, joining and watching by code, the page (room.js) and what its error codes mean.

import { h } from "../../dom.js";
import { showRoom } from "./room.js";

export const rummy = {
  kind: "room",
  // Its finished games' records (replay.js): the kind the server names them by, and who the ids of a
  // step's view are.
  record: { kind: "rummy", names: (view) => view.players.map((player) => [player.id, player.name]) },
  noun: "room",
  codes: { pattern: /^[A-Z0-9]{6}$/, shape: "6 letters and digits", owner: "a rummy room" },
  show: showRoom,
  errors: {
    ROOM_NOT_FOUND: "There is no room with that code.",
    ROOM_FULL: "Every seat at that table is taken.",
    NOT_MODERATOR: "Only the moderator can do that.",
    INVALID_ROOM_CODE: "A room code is 6 letters and digits.",
  },
  async join(connection, code, playerName, access = {}) {
    await connection.request("joinRoom", { code, playerName, ...access });
    return { kind: "room", code };
  },
  async watch(connection, code) {
    await connection.request("getRoom", { code });
    return { kind: "room", code, watching: true };
  },
  start() {
    const limit = h("input", { id: "point-limit", type: "number", inputmode: "numeric", min: 100, max: 350, value: 201 });
    const value = h("input", { id: "point-value", type: "number", inputmode: "numeric", min: 1, max: 1000000, value: 25 });
    const seats = h("input", { id: "seats", type: "number", inputmode: "numeric", min: 2, max: 10, value: 4 });
    return {
      id: "create-room", label: "New rummy table",
      settings: h("details", {},
        h("summary", {}, "Rummy table settings"),
        h("div", { class: "fields" },
          h("label", {}, "Point limit", limit),
          h("label", {}, "Cents per point", value),
          h("label", {}, "Seats", seats))),
      async create(connection, playerName, access = {}) {
        const created = await connection.request("createRoom", {
          pointLimit: Number(limit.value), pointValue: Number(value.value), playerCount: Number(seats.value), playerName, ...access,
        });
        return { kind: "room", code: created.room.id };
      },
    };
  },
};
