// Darts matches, as the browser offers them: the code's shape (a digit first; a code given out before
// codes said their kind may start with a letter, and still joins), the settings and the button that
// start a match, joining and watching by code, the page (match.js) and what its error codes mean.

import { h } from "../../dom.js";
import { showMatch } from "./match.js";

export const darts = {
  kind: "match",
  // Its finished games' records (replay.js): the kind the server names them by, and who the ids of a
  // step's view are.
  record: { kind: "darts", names: (view) => view.players.map((player) => [player.id, player.name]) },
  noun: "darts match",
  codes: {
    pattern: /^[34679][ACDEFGHJKMNPQRTWXY34679]{4}$/, formerly: /^[A-Z0-9]{5}$/,
    shape: "5 characters, a digit first", owner: "a darts match",
  },
  show: showMatch,
  errors: {
    MATCH_NOT_FOUND: "There is no darts match with that code.",
    MATCH_FULL: "Every seat in that match is taken.",
    NOT_HOST: "Only the host (or the player throwing) can do that.",
  },
  // Codes whose server sentence is the most precise one.
  precise: ["INVALID_DARTS"],
  async join(connection, code, playerName, access = {}) {
    await connection.request("joinMatch", { code, playerName, ...access });
    return { kind: "match", code };
  },
  async watch(connection, code) {
    await connection.request("getMatch", { code });
    return { kind: "match", code, watching: true };
  },
  start() {
    const gameType = h("select", { id: "darts-game" }, ["301", "501", "701"].map((type) => h("option", { value: type, selected: type === "501" }, type)));
    const legs = h("input", { id: "darts-legs", type: "number", inputmode: "numeric", min: 1, max: 15, value: 1 });
    const outRule = h("select", { id: "darts-out" },
      [["double", "Double out"], ["straight", "Straight out"], ["master", "Master out"]].map(([rule, label]) => h("option", { value: rule }, label)));
    return {
      id: "create-match", label: "New darts match",
      settings: h("details", {},
        h("summary", {}, "Darts settings"),
        h("div", { class: "fields" },
          h("label", {}, "Game", gameType),
          h("label", {}, "Legs", legs),
          h("label", {}, "Finish", outRule))),
      async create(connection, playerName, access = {}) {
        const created = await connection.request("createMatch", {
          gameType: gameType.value, legs: Number(legs.value), outRule: outRule.value, playerName, ...access,
        });
        return { kind: "match", code: created.match.id };
      },
    };
  },
};
