// Home: the player's name, a code to join or watch, and new games (a rummy table, a word game, a darts
// match, a photo quiz).

import { h } from "./dom.js";
import { kindOfCode, savedName, saveName } from "./place.js";

/** Profile numbers the server keeps for a word-game player: a colour (0–15) and an emoji (0–63). */
function wordProfile(name) {
  let hash = 0;
  for (const char of name) hash = (hash * 31 + char.codePointAt(0)) >>> 0;
  return { username: name, colorNumber: hash % 16, emojiNumber: (hash >>> 4) % 64 };
}

export function showHome(root, context, { code = null } = {}) {
  const { connection } = context;
  const name = h("input", {
    id: "name", name: "name", autocomplete: "nickname", maxlength: 30, required: true, placeholder: "Your name",
    value: savedName(),
  });
  // Kept as it is typed: watching first and joining later still knows the name.
  name.addEventListener("input", () => saveName(name.value.trim()));
  const codeInput = h("input", {
    id: "code", name: "code", autocomplete: "off", autocapitalize: "characters", spellcheck: "false", maxlength: 8,
    placeholder: "ABCD", value: code ?? "", class: "code",
  });
  const busy = (button, work) => async (event) => {
    event.preventDefault();
    if (button.disabled) return;
    button.disabled = true;
    try {
      await work();
    } catch (error) {
      context.fail(error);
    } finally {
      button.disabled = false;
    }
  };
  const playerName = () => {
    const value = name.value.trim();
    if (!value) {
      name.focus();
      throw Object.assign(new Error("Type your name first."), { code: "" });
    }
    saveName(value);
    return value;
  };
  const enteredCode = () => {
    const value = codeInput.value.trim().toUpperCase();
    const kind = kindOfCode(value);
    if (!kind) {
      throw Object.assign(new Error("A code is 4 letters (a word game), 5 characters (darts, a photo quiz) or 6 (a rummy room)."), { code: "" });
    }
    return { value, kind };
  };

  // A 5-letter code no match has may be a photo quiz's: only the server can tell them apart.
  async function matchOrQuiz(code, asMatch, asQuiz) {
    try {
      await asMatch();
      return "match";
    } catch (error) {
      if (error.code !== "MATCH_NOT_FOUND" || !/^[A-Z]{5}$/.test(code)) throw error;
      const quiz = await connection.request("getQuiz", { code }).catch(() => null);
      if (!quiz) throw error;
      await asQuiz();
      return "quiz";
    }
  }

  const join = h("button", { id: "join", type: "submit", class: "primary" }, "Join");
  const watch = h("button", { id: "watch", type: "button" }, "Watch");
  join.addEventListener("click", busy(join, async () => {
    const player = playerName();
    const { value, kind } = enteredCode();
    if (kind === "room") {
      await connection.request("joinRoom", { code: value, playerName: player });
      context.go({ kind: "room", code: value });
    } else if (kind === "match") {
      const joined = await matchOrQuiz(value,
        () => connection.request("joinMatch", { code: value, playerName: player }),
        () => connection.request("joinQuiz", { code: value, playerName: player }));
      context.go({ kind: joined, code: value });
    } else {
      const joined = await connection.request("joinLobby", { lobbyCode: value, user: wordProfile(player) });
      context.go({ kind: "lobby", code: value, lobbyId: joined.lobbyId });
    }
  }));
  watch.addEventListener("click", busy(watch, async () => {
    const { value, kind } = enteredCode();
    if (kind === "lobby") {
      context.go({ kind, code: value, watching: true });
      return;
    }
    if (kind === "room") {
      await connection.request("getRoom", { code: value });
      context.go({ kind, code: value, watching: true });
      return;
    }
    const watched = await matchOrQuiz(value, () => connection.request("getMatch", { code: value }), async () => {});
    context.go({ kind: watched, code: value, watching: true });
  }));

  const limit = h("input", { id: "point-limit", type: "number", inputmode: "numeric", min: 100, max: 350, value: 201 });
  const value = h("input", { id: "point-value", type: "number", inputmode: "numeric", min: 1, max: 1000000, value: 25 });
  const seats = h("input", { id: "seats", type: "number", inputmode: "numeric", min: 2, max: 10, value: 4 });
  const newRoom = h("button", { id: "create-room", type: "submit", class: "primary" }, "New rummy table");
  newRoom.addEventListener("click", busy(newRoom, async () => {
    const player = playerName();
    const created = await connection.request("createRoom", {
      pointLimit: Number(limit.value), pointValue: Number(value.value), playerCount: Number(seats.value), playerName: player,
    });
    context.go({ kind: "room", code: created.room.id });
  }));
  const newLobby = h("button", { id: "create-lobby", type: "button", class: "primary" }, "New word game");
  newLobby.addEventListener("click", busy(newLobby, async () => {
    const created = await connection.request("createLobby", { user: wordProfile(playerName()) });
    context.go({ kind: "lobby", code: created.lobbyCode, lobbyId: created.lobbyId });
  }));

  const gameType = h("select", { id: "darts-game" }, ["301", "501", "701"].map((type) => h("option", { value: type, selected: type === "501" }, type)));
  const legs = h("input", { id: "darts-legs", type: "number", inputmode: "numeric", min: 1, max: 15, value: 1 });
  const outRule = h("select", { id: "darts-out" },
    [["double", "Double out"], ["straight", "Straight out"], ["master", "Master out"]].map(([rule, label]) => h("option", { value: rule }, label)));
  const newMatch = h("button", { id: "create-match", type: "button", class: "primary" }, "New darts match");
  newMatch.addEventListener("click", busy(newMatch, async () => {
    const created = await connection.request("createMatch", {
      gameType: gameType.value, legs: Number(legs.value), outRule: outRule.value, playerName: playerName(),
    });
    context.go({ kind: "match", code: created.match.id });
  }));

  const revealSpeed = h("select", { id: "quiz-speed" },
    [["slow", "Slow"], ["medium", "Medium"], ["fast", "Fast"]].map(([speed, label]) => h("option", { value: speed, selected: speed === "medium" }, label)));
  const timer = h("input", { id: "quiz-timer", type: "number", inputmode: "numeric", min: 10, max: 120, value: 30 });
  const length = h("select", { id: "quiz-length" },
    [["5", "5"], ["10", "10"], ["20", "20"], ["endless", "Endless"]].map(([value, label]) => h("option", { value, selected: value === "10" }, label)));
  const newQuiz = h("button", { id: "create-quiz", type: "button", class: "primary" }, "New photo quiz");
  newQuiz.addEventListener("click", busy(newQuiz, async () => {
    const created = await connection.request("createQuiz", {
      playerName: playerName(), revealSpeed: revealSpeed.value, timerDuration: Number(timer.value), sessionLength: length.value,
    });
    context.go({ kind: "quiz", code: created.quiz.code });
  }));

  root.append(
    h("section", { class: "card" },
      h("h1", {}, "Parlor"),
      h("label", { for: "name" }, "Your name"), name),
    h("form", { class: "card", id: "join-form", onsubmit: (event) => event.preventDefault() },
      h("h2", {}, "Join a game"),
      h("label", { for: "code" }, "Code"), codeInput,
      h("div", { class: "row" }, join, watch)),
    h("section", { class: "card" },
      h("h2", {}, "Start a game"),
      h("details", {},
        h("summary", {}, "Rummy table settings"),
        h("div", { class: "fields" },
          h("label", {}, "Point limit", limit),
          h("label", {}, "Cents per point", value),
          h("label", {}, "Seats", seats))),
      h("details", {},
        h("summary", {}, "Darts settings"),
        h("div", { class: "fields" },
          h("label", {}, "Game", gameType),
          h("label", {}, "Legs", legs),
          h("label", {}, "Finish", outRule))),
      h("details", {},
        h("summary", {}, "Photo quiz settings"),
        h("div", { class: "fields" },
          h("label", {}, "Reveal", revealSpeed),
          h("label", {}, "Seconds", timer),
          h("label", {}, "Photos", length))),
      h("div", { class: "stack" }, newRoom, newLobby, newMatch, newQuiz)),
  );
  (name.value ? codeInput : name).focus({ preventScroll: true });
  return { dispose() {} };
}
