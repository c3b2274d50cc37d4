// A rummy room (docs/PROTOCOL.md, "Rummy rooms"): the seats and who is ready, the moderator's start,
// score entry for any round so far, closing rounds, and the standings and settlement at the end.
// Watching shows the same room with no controls.

import { h, fill } from "./dom.js";
import { followGame } from "./follow.js";
import { dollars, perPoint } from "./money.js";
import { presenceDot } from "./presence.js";
import { sharePanel } from "./share.js";

export function showRoom(root, context, place) {
  const { connection } = context;
  const code = place.code;
  let room = null;
  let presence = new Map();
  let disposed = false;
  let sharing = false;

  const header = h("header", { class: "game-header" });
  const body = h("div", { id: "room", class: "stack" });
  root.append(header, body);

  // Inputs outlive re-renders, so a score being typed survives the next update.
  const scorePlayer = h("select", { id: "score-player" });
  const scoreRound = h("select", { id: "score-round" });
  const scoreValue = h("input", { id: "score-value", type: "number", inputmode: "numeric", min: 0, max: 1000, placeholder: "Points" });
  const scoreSave = h("button", { id: "score-save", type: "submit", class: "primary" }, "Save");
  const scoreForm = h("form", { id: "score-form", class: "card" },
    h("h2", {}, "Enter a score"),
    h("div", { class: "fields" },
      h("label", {}, "Player", scorePlayer),
      h("label", {}, "Round", scoreRound),
      h("label", {}, "Points", scoreValue)),
    scoreSave);
  scoreForm.addEventListener("submit", (event) => {
    event.preventDefault();
    const score = Number(scoreValue.value);
    if (scoreValue.value === "" || !Number.isInteger(score)) {
      context.say("Type the points as a whole number.", { error: true });
      return;
    }
    act(scoreSave, "submitScore", {
      roomCode: code, playerId: scorePlayer.value || connection.userId, round: Number(scoreRound.value), score,
    }).then((ok) => {
      if (ok) scoreValue.value = "";
    });
  });

  async function act(button, op, args) {
    button.disabled = true;
    try {
      const result = await connection.request(op, args);
      if (result && result.version !== undefined) update(result);
      return true;
    } catch (error) {
      context.fail(error);
      return false;
    } finally {
      button.disabled = false;
    }
  }

  function update(next) {
    if (!next || (room && next.version < room.version)) return;
    room = next;
    // The moderator started a rematch: players are seated there already, spectators watch it.
    if (room.rematch && !disposed) {
      context.go({ kind: "room", code: room.rematch, watching: !me() });
      context.say(`On to the rematch: room ${room.rematch}.`);
      return;
    }
    render();
  }

  function me() {
    return room?.players.find((player) => player.id === connection.userId) ?? null;
  }

  function render() {
    if (disposed) return;
    // Re-rendering moves the score form; keep the keyboard up on the field being typed in.
    const focused = scoreForm.contains(document.activeElement) ? document.activeElement : null;
    draw();
    if (focused && focused.isConnected) focused.focus({ preventScroll: true });
  }

  function draw() {
    const mine = me();
    const watching = !mine;
    const moderator = mine?.isModerator ?? false;
    fill(header,
      h("div", {},
        h("div", { class: "eyebrow" }, watching ? "Watching rummy" : "Rummy"),
        h("h1", { class: "code", id: "room-code" }, code)),
      h("div", { class: "row" },
        h("button", { type: "button", id: "share", "aria-expanded": String(sharing), onclick: () => {
          sharing = !sharing;
          render();
        } }, sharing ? "Hide" : "Share"),
        h("button", { type: "button", id: "leave", onclick: leave }, watching ? "Close" : "Leave")));
    if (!room) {
      fill(body, h("p", { class: "muted" }, "Loading…"));
      return;
    }
    // The panel goes first, above the game, until it is hidden again.
    const panel = sharing ? sharePanel(code, context) : null;
    const rules = h("p", { class: "muted", id: "room-rules" },
      `To ${room.pointLimit} points · ${perPoint(room.pointValue)} a point · ${room.players.length} of ${room.playerCount} seats`);
    if (room.isFinished) {
      let rematch = null;
      if (moderator) {
        rematch = h("button", { id: "rematch", type: "button", class: "primary big" }, "Rematch: same players, new room");
        rematch.addEventListener("click", () => act(rematch, "rematchRoom", { roomCode: code }));
      }
      fill(body, panel, rules, results(room), scoreTable(room), rematch);
      return;
    }
    if (!room.isStarted) {
      const allReady = room.players.length >= 2 && room.players.every((player) => player.isReady);
      const seats = h("ul", { class: "players", id: "players" }, room.players.map((player) =>
        h("li", { dataset: { player: player.id } },
          presenceDot(player.id, presence),
          h("span", { class: "name" }, player.name, player.id === connection.userId ? " (you)" : ""),
          player.isModerator ? h("span", { class: "tag" }, "moderator") : null,
          h("span", { class: player.isReady ? "ready yes" : "ready" }, player.isReady ? "ready" : "not ready"))));
      const controls = [];
      if (mine && !mine.isModerator) {
        const ready = h("button", { id: "ready", type: "button", class: mine.isReady ? "" : "primary" }, mine.isReady ? "Not ready" : "I'm ready");
        ready.addEventListener("click", () => act(ready, "setReady", { roomCode: code, playerId: mine.id, ready: !mine.isReady }));
        controls.push(ready);
      }
      if (moderator) {
        const start = h("button", { id: "start", type: "button", class: "primary", disabled: !allReady }, "Start the game");
        start.addEventListener("click", () => act(start, "startGame", { roomCode: code }));
        controls.push(start);
        if (!allReady) controls.push(h("p", { class: "muted" }, room.players.length < 2 ? "Waiting for a second player." : "Waiting for everyone to be ready."));
      } else if (mine) {
        controls.push(h("p", { class: "muted" }, "The moderator starts when everyone is ready."));
      }
      fill(body, panel, rules, h("section", { class: "card" }, h("h2", {}, "Players"), seats,
        controls.length > 0 ? h("div", { class: "stack" }, controls) : null));
      return;
    }
    // Playing.
    const parts = [panel, h("p", { class: "status", id: "round" }, `Round ${room.currentRound} of 6`), rules, scoreTable(room)];
    if (mine) {
      const others = moderator ? room.players : [mine];
      const selected = scorePlayer.value;
      fill(scorePlayer, others.map((player) => h("option", { value: player.id, selected: player.id === (selected || mine.id) }, player.name)));
      scorePlayer.disabled = others.length === 1;
      const round = scoreRound.value;
      fill(scoreRound, Array.from({ length: room.currentRound }, (_, index) => index + 1).map((number) =>
        h("option", { value: number, selected: String(number) === (round || String(room.currentRound)) }, String(number))));
      parts.push(scoreForm);
    }
    if (moderator) {
      const next = h("button", { id: "next-round", type: "button", class: "primary" },
        room.currentRound === 6 ? "Finish the game" : `Close round ${room.currentRound}`);
      next.addEventListener("click", () => act(next, "nextRound", { roomCode: code }));
      parts.push(next);
    }
    fill(body, ...parts);
  }

  function scoreTable(room) {
    const rounds = room.isStarted ? Math.min(room.currentRound, 6) : 0;
    return h("div", { class: "table-wrap card" },
      h("table", { class: "scores", id: "scores" },
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Player"),
          Array.from({ length: rounds }, (_, index) => h("th", { scope: "col", class: "num" }, `R${index + 1}`)),
          h("th", { scope: "col", class: "num" }, "Total"))),
        h("tbody", {}, room.players.map((player) => h("tr", { dataset: { player: player.id } },
          h("th", { scope: "row" }, presenceDot(player.id, presence), player.name),
          Array.from({ length: rounds }, (_, index) => h("td", { class: "num" }, enteredScore(player, index))),
          h("td", { class: "num total" }, String(player.totalScore)))))));
  }

  function results(room) {
    const results = room.results;
    if (!results) return h("p", {}, "The game is over.");
    const names = new Map(room.players.map((player) => [player.id, player.name]));
    for (const standing of results.standings) names.set(standing.playerId, standing.name);
    const winner = names.get(results.winnerId) ?? "—";
    return h("section", { class: "card", id: "results" },
      h("h2", {}, "Final standings"),
      h("p", { class: "winner", id: "winner" }, `🏆 ${winner} wins`),
      h("ol", { class: "standings", id: "standings" }, results.standings.map((standing) =>
        h("li", {}, h("span", { class: "rank" }, `${standing.rank}.`), h("span", { class: "name" }, standing.name),
          h("span", { class: "num" }, `${standing.totalScore} pts`)))),
      h("h2", {}, "Settlement"),
      results.settlement.length === 0
        ? h("p", { class: "muted" }, "Nobody owes anything.")
        : h("ul", { class: "settlement", id: "settlement" }, results.settlement.map((debt) =>
          h("li", {}, h("span", {}, `${names.get(debt.from) ?? "?"} pays ${names.get(debt.to) ?? "?"}`),
            h("span", { class: "num" }, dollars(debt.amount))))));
  }

  async function leave() {
    const mine = me();
    if (mine && !room?.isFinished) {
      if (!confirm("Leave this table? Your seat and scores go.")) return;
      try {
        await connection.request("leaveRoom", { roomCode: code, playerId: mine.id });
      } catch (error) {
        if (error.code !== "ROOM_NOT_FOUND" && error.code !== "PLAYER_NOT_FOUND") {
          context.fail(error);
          return;
        }
      }
    }
    context.go(null);
  }

  render();
  const stream = followGame(context, {
    op: "observeRoom", args: { code }, viewEvent: "room", closed: "The room was closed.",
    view: update,
    presence(online) {
      presence = online;
      render();
    },
  });

  return {
    dispose() {
      disposed = true;
      stream.stop();
    },
  };
}

// A round's score as the table shows it: `·` for one nobody has entered yet (a 0 would read as a
// score), the number otherwise. A room from a server without `entered` counts non-zero scores.
function enteredScore(player, index) {
  const score = player.scores[index] ?? 0;
  const entered = player.entered ? player.entered[index] === true : score !== 0;
  return entered ? String(score) : "·";
}
