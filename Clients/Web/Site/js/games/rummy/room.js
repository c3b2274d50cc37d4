// A rummy room (docs/PROTOCOL.md, "Rummy rooms"): the seats and who is ready, the moderator's start,
// score entry for any round so far, closing rounds, and the standings and settlement at the end.
// Watching shows the same room with no controls.

import { h, fill } from "../../dom.js";
import { dollars, perPoint } from "./money.js";
import { presenceDot } from "../../presence.js";
import { gamePage } from "../../shell.js";

export function showRoom(root, context, place, game) {
  const { connection } = context;
  const code = place.code;

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
    ui.act("submitScore", {
      roomCode: code, playerId: scorePlayer.value || connection.userId, round: Number(scoreRound.value), score,
    }, scoreSave).then((ok) => {
      if (ok) scoreValue.value = "";
    });
  });

  const seated = (room) => room?.players.find((player) => player.id === connection.userId) ?? null;

  const { ui, dispose } = gamePage(root, context, place, game, {
    codeId: "room-code", bodyId: "room",
    eyebrow: (_, watching) => (watching ? "Watching rummy" : "Rummy"),
    observe: { op: "observeRoom", args: { code }, viewEvent: "room", closed: "The room was closed." },
    viewOf: (result) => (result && result.version !== undefined ? result : null),
    isMember: (room, userId) => room.players.some((player) => player.id === userId),
    rematchOf: (room) => room.rematch ?? null,
    kick: {
      host: (room) => room.players.find((player) => player.isModerator)?.id,
      seats: (room) => room.players.map((player) => ({ id: player.id, name: player.name })),
      allowed: (room) => !room.rematch,
      op: "leaveRoom", args: (playerId) => ({ roomCode: code, playerId }),
    },
    leave(room) {
      const mine = seated(room);
      return mine && !room.isFinished
        ? { confirm: "Leave this table? Your seat and scores go.", op: "leaveRoom", args: { roomCode: code, playerId: mine.id } }
        : null;
    },
    // Re-rendering moves the score form; keep the keyboard up on the field being typed in.
    keepFocus: (element) => scoreForm.contains(element),
    draw,
  });

  function draw() {
    const room = ui.view;
    const mine = seated(room);
    const moderator = mine?.isModerator ?? false;
    const rules = h("p", { class: "muted", id: "room-rules" },
      `To ${room.pointLimit} points · ${perPoint(room.pointValue)} a point · ${room.players.length} of ${room.playerCount} seats`);
    if (room.isFinished) {
      let rematch = null;
      if (moderator) {
        rematch = h("button", { id: "rematch", type: "button", class: "primary big" }, "Rematch: same players, new room");
        rematch.addEventListener("click", () => ui.act("rematchRoom", { roomCode: code }, rematch));
      }
      return [rules, results(room), scoreTable(room), rematch];
    }
    if (!room.isStarted) {
      const allReady = room.players.length >= 2 && room.players.every((player) => player.isReady);
      const seats = h("ul", { class: "players", id: "players" }, room.players.map((player) =>
        h("li", { dataset: { player: player.id } },
          presenceDot(player.id, ui.presence),
          h("span", { class: "name" }, player.name, player.id === connection.userId ? " (you)" : ""),
          player.isModerator ? h("span", { class: "tag" }, "moderator") : null,
          h("span", { class: player.isReady ? "ready yes" : "ready" }, player.isReady ? "ready" : "not ready"))));
      const controls = [];
      if (mine && !mine.isModerator) {
        const ready = h("button", { id: "ready", type: "button", class: mine.isReady ? "" : "primary" }, mine.isReady ? "Not ready" : "I'm ready");
        ready.addEventListener("click", () => ui.act("setReady", { roomCode: code, playerId: mine.id, ready: !mine.isReady }, ready));
        controls.push(ready);
      }
      if (moderator) {
        const start = h("button", { id: "start", type: "button", class: "primary", disabled: !allReady }, "Start the game");
        start.addEventListener("click", () => ui.act("startGame", { roomCode: code }, start));
        controls.push(start);
        if (!allReady) controls.push(h("p", { class: "muted" }, room.players.length < 2 ? "Waiting for a second player." : "Waiting for everyone to be ready."));
      } else if (mine) {
        controls.push(h("p", { class: "muted" }, "The moderator starts when everyone is ready."));
      }
      return [rules, h("section", { class: "card" }, h("h2", {}, "Players"), seats,
        controls.length > 0 ? h("div", { class: "stack" }, controls) : null)];
    }
    // Playing.
    const parts = [h("p", { class: "status", id: "round" }, `Round ${room.currentRound} of 6`), rules, scoreTable(room)];
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
      next.addEventListener("click", () => ui.act("nextRound", { roomCode: code }, next));
      parts.push(next);
    }
    return parts;
  }

  function scoreTable(room) {
    const rounds = room.isStarted ? Math.min(room.currentRound, 6) : 0;
    return h("div", { class: "table-wrap card" },
      h("table", { class: "scores", id: "scores" },
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Player"),
          Array.from({ length: rounds }, (_, index) => h("th", { scope: "col", class: "num" }, `R${index + 1}`)),
          h("th", { scope: "col", class: "num" }, "Total"))),
        h("tbody", {}, room.players.map((player) => h("tr", { dataset: { player: player.id } },
          h("th", { scope: "row" }, presenceDot(player.id, ui.presence), player.name),
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

  return { dispose };
}

// A round's score as the table shows it: `·` for one nobody has entered yet (a 0 would read as a
// score), the number otherwise. A room from a server without `entered` counts non-zero scores.
function enteredScore(player, index) {
  const score = player.scores[index] ?? 0;
  const entered = player.entered ? player.entered[index] === true : score !== 0;
  return entered ? String(score) : "·";
}
