// A darts match (docs/PROTOCOL.md, "Darts matches"): the seats and guests before the start, then the
// scoreboard with the player to throw and the finish to aim for, a dart keypad (or a visit's total)
// for whoever may score this turn — the thrower, or the host for anyone — editing or taking back the
// last visit, and the statistics at the end with the host's rematch (the shell follows it, as everyone
// watching does). Watching shows the same board with no keypad.

import { h, fill } from "../../dom.js";
import { presenceDot } from "../../presence.js";
import { gamePage } from "../../shell.js";

/** "T20" for treble twenty, "S5" for a single five (the bulls and a miss have keys of their own). */
export function dartName(multiplier, number) {
  return `${multiplier}${number}`;
}

export function showMatch(root, context, place, game) {
  const { connection } = context;
  const code = place.code;
  // The keypad: the multiplier for the next dart and the darts of the visit being entered; `editing`
  // when they replace the last visit instead.
  let multiplier = "S";
  let darts = [];
  let editing = false;
  // The view being drawn (the shell keeps the newest; every new one is drawn).
  let match = null;

  const guestName = h("input", { id: "guest-name", maxlength: 50, placeholder: "Guest's name", autocomplete: "off" });
  const totalInput = h("input", { id: "visit-total", type: "number", inputmode: "numeric", min: 0, max: 180, placeholder: "Total" });

  const { ui, dispose } = gamePage(root, context, place, game, {
    codeId: "match-code", bodyId: "match",
    eyebrow: (match, watching) => (match ? `${watching ? "Watching darts" : "Darts"} · ${match.gameType}` : "Darts"),
    observe: { op: "observeMatch", args: { code }, viewEvent: "match", closed: "The match was closed." },
    viewOf: (result) => result?.match ?? (result?.version !== undefined ? result : null),
    isMember: (match, userId) => match.players.some((player) => player.id === userId),
    rematchOf: (match) => match.rematch ?? null,
    kick: {
      host: (match) => match.hostId,
      seats: (match) => match.players.filter((player) => !player.hasLeft).map((player) => ({ id: player.id, name: player.name })),
      allowed: (match) => match.status === "waiting",
      op: "removePlayer", args: (playerId) => ({ code, playerId }),
    },
    leave: (match) => (match.status !== "finished" ? { confirm: "Leave this match?", op: "leaveMatch", args: { code } } : null),
    keepFocus: (element) => element === totalInput || element === guestName,
    // A visit entered elsewhere ends any edit begun here: the visit being edited may be final now.
    onView(next, previous) {
      if (editing && previous && next.lastVisit?.number !== previous.lastVisit?.number) {
        editing = false;
        darts = [];
      }
    },
    draw,
  });
  const act = (op, args, button) => ui.act(op, args, button);
  const render = () => ui.render();

  const me = () => match?.players.find((player) => player.id === connection.userId) ?? null;
  const isHost = () => match?.hostId === connection.userId;
  const thrower = () => match?.players.find((player) => player.id === match.currentPlayerId) ?? null;

  /** Whoever may score now: the player to throw on their own phone, or the host for anyone. */
  function canScore() {
    const current = thrower();
    return match?.status === "playing" && current && (current.id === connection.userId || isHost());
  }

  function canEditLast() {
    const last = match?.lastVisit;
    return match?.status === "playing" && last && (last.recordedBy === connection.userId || isHost());
  }

  function send(visit) {
    const args = editing
      ? { code, visit: match.lastVisit.number, ...visit }
      : { code, playerId: match.currentPlayerId, ...visit };
    return act(editing ? "editLastVisit" : "recordVisit", args).then((ok) => {
      if (ok) {
        darts = [];
        multiplier = "S";
        editing = false;
        totalInput.value = "";
        render();
      }
    });
  }

  function draw() {
    match = ui.view;
    const parts = [h("p", { class: "muted", id: "match-rules" }, rules())];
    if (match.status === "waiting") parts.push(waiting());
    else parts.push(board());
    if (match.status === "playing" && canScore()) parts.push(keypad());
    else if (match.status === "playing") {
      parts.push(h("p", { class: "status", id: "turn" }, `${thrower()?.name ?? "Someone"} to throw.`));
    }
    if (match.status === "finished") parts.push(statistics(), rematch());
    return parts;
  }

  function rules() {
    const first = match.sets ? `first to ${match.sets} sets of ${match.legs} legs` : `first to ${match.legs} leg${match.legs === 1 ? "" : "s"}`;
    return `${match.gameType} · ${match.inRule} in · ${match.outRule} out · ${first}`;
  }

  function waiting() {
    const list = h("ul", { class: "players", id: "players" }, match.players.map((player) =>
      h("li", { dataset: { player: player.id } },
        player.isGuest ? h("span", { class: "dot unknown" }) : presenceDot(player.id, ui.presence),
        h("span", { class: "name" }, player.name, player.id === connection.userId ? " (you)" : ""),
        player.id === match.hostId ? h("span", { class: "tag" }, "host") : null,
        player.isGuest ? h("span", { class: "tag" }, "guest") : null)));
    const section = h("section", { class: "card" }, h("h2", {}, `Players (${match.players.length} of ${match.capacity})`), list);
    if (isHost()) {
      const add = h("button", { id: "add-guest", type: "submit" }, "Add guest");
      const form = h("form", { class: "word-form", id: "guest-form" }, guestName, add);
      form.addEventListener("submit", (event) => {
        event.preventDefault();
        const name = guestName.value.trim();
        if (!name) return;
        act("addGuest", { code, name }, add).then((ok) => {
          if (ok) guestName.value = "";
        });
      });
      const start = h("button", { id: "start-match", type: "button", class: "primary" }, "Start the match");
      start.addEventListener("click", () => act("startMatch", { code }, start));
      section.append(form, start);
    } else {
      section.append(h("p", { class: "muted" }, "The host starts the match."));
    }
    return section;
  }

  function board() {
    return h("section", { class: "scoreboard", id: "scoreboard" }, match.players.map((player) => {
      const throwing = player.id === match.currentPlayerId;
      const last = player.visits[player.visits.length - 1];
      return h("div", { class: `player-card${throwing ? " throwing" : ""}${player.id === match.winnerId ? " won" : ""}`, dataset: { player: player.id } },
        h("div", { class: "card-top" },
          player.isGuest ? null : presenceDot(player.id, ui.presence),
          h("span", { class: "name" }, player.name),
          player.isGuest ? h("span", { class: "tag" }, "guest") : null,
          player.id === match.winnerId ? h("span", { class: "tag win" }, "winner") : null),
        h("div", { class: "remaining" }, String(player.remaining)),
        h("div", { class: "muted small" },
          match.sets ? `sets ${player.setsWon} · legs ${player.legsWon}` : `legs ${player.legsWon}`,
          ` · avg ${player.stats.threeDartAverage}`),
        throwing && match.checkout
          ? h("div", { class: "checkout", id: "checkout" }, `Out: ${match.checkout.join(" ")}`)
          : h("div", { class: "muted small last-visit" }, last ? visitText(last) : " "));
    }));
  }

  function visitText(visit) {
    const what = visit.darts ? visit.darts.join(" ") : "total";
    if (visit.isBust) return `Last: ${what} — bust`;
    return `Last: ${what} (${visit.total})`;
  }

  function keypad() {
    const current = thrower();
    const title = editing ? "Edit the last visit" : `${current.name}${current.id === connection.userId ? " (you)" : ""} to throw`;
    const chips = h("div", { class: "darts", id: "visit-darts" },
      [0, 1, 2].map((index) => h("span", { class: darts[index] ? "dart" : "dart empty" }, darts[index] ?? "·")));
    const multipliers = h("div", { class: "multipliers" }, [["S", "Single"], ["D", "Double"], ["T", "Treble"]].map(([value, label]) => {
      const button = h("button", { type: "button", class: multiplier === value ? "primary" : "", "aria-pressed": String(multiplier === value), dataset: { multiplier: value } }, label);
      button.addEventListener("click", () => {
        multiplier = multiplier === value ? "S" : value;
        render();
      });
      return button;
    }));
    const dart = (name, label) => {
      const button = h("button", { type: "button", class: "key", dataset: { dart: name }, disabled: darts.length >= 3 }, label);
      button.addEventListener("click", () => {
        if (darts.length >= 3) return;
        darts.push(name);
        multiplier = "S";
        render();
      });
      return button;
    };
    const numbers = h("div", { class: "keys", id: "keys" },
      Array.from({ length: 20 }, (_, index) => dart(dartName(multiplier, index + 1), String(index + 1))),
      dart("25", "25"),
      dart("DB", "Bull"),
      dart("M", "Miss"));
    const undo = h("button", { type: "button", id: "undo-dart", disabled: darts.length === 0 }, "Undo");
    undo.addEventListener("click", () => {
      darts.pop();
      render();
    });
    const enter = h("button", { type: "button", id: "enter-visit", class: "primary", disabled: darts.length === 0 }, editing ? "Replace visit" : "Enter visit");
    enter.addEventListener("click", () => send({ darts: [...darts] }));
    const totalButton = h("button", { type: "submit", id: "enter-total" }, "Enter total");
    const totalForm = h("form", { class: "word-form", id: "total-form" }, totalInput, totalButton);
    totalForm.addEventListener("submit", (event) => {
      event.preventDefault();
      if (totalInput.value === "") return;
      send({ total: Number(totalInput.value) });
    });
    // What the thrower needs while typing, where the thumb is: the keypad may have scrolled the board away.
    const aim = editing ? null : h("p", { class: "aim", id: "aim" }, `${current.remaining} left`,
      match.checkout ? h("span", { class: "checkout" }, ` · out ${match.checkout.join(" ")}`) : null);
    const section = h("section", { class: "card keypad", id: "keypad" },
      h("h2", {}, title), aim, chips, multipliers, numbers, h("div", { class: "row" }, undo, enter), totalForm);
    if (editing) {
      const cancel = h("button", { type: "button", id: "cancel-edit" }, "Cancel");
      cancel.addEventListener("click", () => {
        editing = false;
        darts = [];
        render();
      });
      section.append(cancel);
    } else if (canEditLast()) {
      const edit = h("button", { type: "button", id: "edit-last" }, "Edit last visit");
      edit.addEventListener("click", () => {
        editing = true;
        darts = [];
        multiplier = "S";
        render();
      });
      // Takes the last visit back altogether: a leg it won reopens, the turn returns to its thrower.
      const takeBack = h("button", { type: "button", id: "take-back-last" }, "Take back last visit");
      takeBack.addEventListener("click", () => {
        act("undoLastVisit", { code, visit: match.lastVisit.number }, takeBack).then((ok) => { if (ok) render(); });
      });
      section.append(edit, takeBack);
    }
    return section;
  }

  function statistics() {
    const winner = match.players.find((player) => player.id === match.winnerId);
    return h("section", { class: "card", id: "match-results" },
      h("p", { class: "winner", id: "winner" }, `🏆 ${winner?.name ?? "—"} wins`),
      h("div", { class: "table-wrap" }, h("table", { class: "scores stats", id: "match-stats" },
        h("thead", {}, h("tr", {}, ["Player", "Avg", "1st 9", "Out %", "Hi out", "180"].map((label) => h("th", { scope: "col" }, label)))),
        h("tbody", {}, match.players.map((player) => h("tr", {},
          h("th", { scope: "row" }, player.name),
          [player.stats.threeDartAverage, player.stats.firstNineAverage, player.stats.checkoutPercent,
            player.stats.highestCheckout, player.stats.count180].map((value) => h("td", { class: "num" }, String(value)))))))));
  }

  /** The host plays a finished match again: the same settings and players, the next one throwing first. */
  function rematch() {
    if (!isHost()) return h("p", { class: "muted", id: "rematch-note" }, "The host may start a rematch; this screen follows it.");
    const button = h("button", { id: "rematch", type: "button", class: "primary big" }, "Rematch: same players, new match");
    button.addEventListener("click", () => act("rematchMatch", { code }, button));
    return button;
  }

  return { dispose };
}
