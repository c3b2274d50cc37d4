// A word game (docs/PROTOCOL.md, "Word lobbies"): the players and their scores, the host's start, and
// during a round the countdown from the server's deadline (measured on the server's clock, not this
// phone's), word entry with the server's verdict on each, this player's own list, and after it the
// round's results with everyone's words. Everything else — the header, sharing, the stream and the
// server's clock, presence, following the rematch, removing a player, leaving — is the shell's.

import { h, fill } from "../../dom.js";
import { clock, count } from "../../format.js";
import { presenceDot } from "../../presence.js";
import { gamePage } from "../../shell.js";

const colors = ["#e53935", "#fb8c00", "#fdd835", "#7cb342", "#2e7d32", "#00897b", "#00acc1", "#039be5",
  "#1e88e5", "#5e35b1", "#8e24aa", "#d81b60", "#f06292", "#8d6e63", "#9e9e9e", "#ff8a65"];
const emoji = ["🐶", "🐱", "🐭", "🐹", "🐰", "🦊", "🐻", "🐼", "🐨", "🐯", "🦁", "🐮", "🐷", "🐸", "🐵", "🐔",
  "🐧", "🐦", "🐤", "🦆", "🦉", "🦇", "🐺", "🐗", "🐴", "🦄", "🐝", "🐛", "🦋", "🐌", "🐞", "🐜",
  "🐢", "🐍", "🦎", "🐙", "🦑", "🦀", "🐠", "🐬", "🐳", "🦈", "🐊", "🐘", "🦒", "🦓", "🦔", "🦜",
  "🍎", "🍋", "🍉", "🍇", "🍓", "🍒", "🥝", "🍄", "🌵", "🌻", "🌈", "⭐", "🔥", "🎈", "🎲", "🚀"];

function avatar(player) {
  const badge = h("span", { class: "avatar" }, emoji[player.emojiNumber] ?? "🙂");
  badge.style.borderColor = colors[player.colorNumber] ?? "#9e9e9e";
  return badge;
}

export function showLobby(root, context, place, game) {
  const { connection } = context;
  const { code } = place;
  // A spectator follows the lobby by its code (`watchLobby`): the public view, no words, no controls.
  const spectator = place.watching === true;
  let lobbyId = place.lobbyId;
  let words = [];
  let verdict = null;
  // The view being drawn (the shell keeps the newest; every new one is drawn).
  let lobby = null;

  const countdown = h("div", { class: "countdown", id: "countdown", role: "timer" });
  const wordInput = h("input", {
    id: "word", name: "word", autocomplete: "off", autocapitalize: "none", autocorrect: "off", spellcheck: "false",
    maxlength: 64, placeholder: "Type a word", enterkeyhint: "send",
  });
  const send = h("button", { id: "send", type: "submit", class: "primary" }, "Send");
  const verdictLine = h("p", { id: "verdict", class: "verdict", "aria-live": "polite" });
  const wordForm = h("form", { id: "word-form", class: "word-form" }, wordInput, send);
  wordForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    const word = wordInput.value.trim();
    if (!word) return;
    try {
      const result = await connection.request("submitWord", { lobbyId, word });
      verdict = result;
      wordInput.value = "";
    } catch (error) {
      verdict = null;
      context.fail(error);
    }
    showVerdict();
    wordInput.focus({ preventScroll: true });
  });

  function showVerdict() {
    if (!verdict) {
      fill(verdictLine);
      verdictLine.className = "verdict";
      return;
    }
    verdictLine.className = verdict.accepted ? "verdict accepted" : "verdict rejected";
    fill(verdictLine, verdict.accepted ? `✓ ${verdict.word}` : `✗ ${verdict.reason ?? `"${verdict.word}" was not accepted.`}`);
  }

  // The host's choice of game: the next one in the catalog unless another is picked. The catalog is
  // public and read once per screen; the choice survives re-renders.
  const gamePick = h("select", { id: "game-pick" }, h("option", { value: "" }, "Next game in the catalog"));
  let catalogAsked = false;
  async function loadCatalog() {
    if (catalogAsked) return;
    catalogAsked = true;
    try {
      const catalog = await connection.request("getCatalog", {});
      for (const mode of catalog.gameModes ?? []) {
        for (const level of mode.levels ?? []) {
          gamePick.append(h("optgroup", { label: `${mode.name} · ${level.name}` },
            (level.games ?? []).map((game) => h("option", { value: game.id }, `${game.name} (${game.timeLimit} s)`))));
        }
      }
    } catch {
      // Without the list the host still starts the next game; asking again on the next render.
      catalogAsked = false;
    }
  }

  const ticker = setInterval(tick, 250);
  function tick() {
    if (!lobby?.round) return;
    const left = (Date.parse(lobby.round.deadline) - ui.now()) / 1000;
    fill(countdown, clock(left));
    countdown.classList.toggle("urgent", left <= 10);
  }

  const { ui, dispose } = gamePage(root, context, place, game, {
    codeId: "lobby-code", bodyId: "lobby",
    eyebrow: (view, watching) => ((view ? watching : spectator) ? "Watching a word game" : "Word game"),
    observe: {
      op: spectator ? "watchLobby" : "observeLobby", args: spectator ? { lobbyCode: code } : { lobbyId },
      viewEvent: "lobby", closed: "The word game was closed.",
      other(event, data) {
        if (event !== "lobbyPrivate" || (lobby && data.version < lobby.version)) return;
        words = data.words ?? [];
        ui.render();
      },
    },
    // A replay's step: this player's own words then (none for a spectator).
    privateView: (data) => (words = data?.words ?? []),
    viewOf: () => null,
    isMember: (view, userId) => !spectator && view.players.some((player) => player.userId === userId),
    rematchOf: (view) => view.rematch ?? null,
    rematchPlace: followRematch,
    kick: {
      host: (view) => view.creator,
      seats: (view) => view.players.map((player) => ({ id: player.userId, name: player.username })),
      allowed: () => true,
      op: "removeLobbyPlayer", args: (userId) => ({ lobbyId, userId }),
    },
    leave: () => ({ confirm: "Leave this word game?", op: "leaveLobby", args: { lobbyId }, gone: ["NOT_LOBBY_MEMBER"] }),
    keepFocus: (element) => element === wordInput,
    onView(next, previous) {
      if (previous?.round?.number !== next.round?.number) {
        verdict = null;
        showVerdict();
      }
      lobbyId = next.lobbyId ?? lobbyId;
    },
    draw,
  });

  function me() {
    return lobby?.players.find((player) => player.userId === connection.userId) ?? null;
  }

  function draw() {
    lobby = ui.view;
    const watching = ui.watching;
    const parts = [];
    if (lobby.status === "GAME" && lobby.round) {
      const played = lobby.round.game;
      parts.push(h("section", { class: "card round" },
        h("div", { class: "round-top" },
          h("div", {}, h("div", { class: "eyebrow" }, roundLabel(lobby.round.number)), h("h2", { id: "game-name" }, played.name)),
          countdown),
        h("p", { class: "instructions" }, played.instructions || played.description || ""),
        watching ? h("p", { class: "muted", id: "watching" }, "You are watching: the words show when the round ends.") : wordForm,
        watching ? null : verdictLine));
      if (!watching) parts.push(h("section", { class: "card" },
        h("h2", {}, `Your words (${words.length})`),
        words.length === 0 ? h("p", { class: "muted" }, "None yet.") :
          h("ul", { class: "words", id: "my-words" }, words.map((entry) =>
            h("li", { class: entry.accepted ? "accepted" : "rejected" },
              h("span", { class: "mark" }, entry.accepted ? "✓" : "✗"),
              h("span", { class: "word" }, entry.word),
              entry.reason ? h("span", { class: "reason" }, entry.reason) : null)))));
      tick();
    } else if (lobby.status === "FINISHED") {
      parts.push(matchOver(watching));
      if (lobby.lastRound) parts.push(results(lobby.lastRound));
    } else {
      const host = lobby.players.find((player) => player.userId === lobby.creator);
      if (lobby.creator === connection.userId && !watching) {
        const start = h("button", { id: "start-round", type: "button", class: "primary big" },
          lobby.lastRound ? "Start the next round" : "Start a round");
        start.addEventListener("click", () => ui.act("startGame", gamePick.value ? { lobbyId, gameId: gamePick.value } : { lobbyId }, start));
        loadCatalog();
        parts.push(h("section", { class: "card" }, h("label", {}, "Game", gamePick), start));
      } else {
        parts.push(h("p", { class: "status", id: "waiting" }, `Waiting for ${host?.username ?? "the host"} to start a round.`));
      }
      if (lobby.lastRound) parts.push(results(lobby.lastRound));
    }
    parts.push(players());
    return parts;
  }

  /** "Round 2 of 5", or "Round 2" for a lobby that plays on forever. */
  function roundLabel(number) {
    return lobby.rounds ? `Round ${number} of ${lobby.rounds}` : `Round ${number}`;
  }

  /** The match's end: who won, and for the creator the rematch (a new lobby, the same players). */
  function matchOver(watching) {
    const names = (lobby.winners ?? []).map((id) => lobby.players.find((player) => player.userId === id)?.username ?? "someone");
    const top = Math.max(0, ...lobby.players.map((player) => player.score));
    const headline = names.length === 0 ? "Match over"
      : names.length === 1 ? `${names[0]} wins with ${count(top, "point")}` : `${names.join(" and ")} share the win with ${count(top, "point")}`;
    const parts = [h("div", { class: "eyebrow" }, "Match over"), h("h2", { id: "winners" }, headline)];
    if (lobby.creator === connection.userId && !watching) {
      const rematch = h("button", { id: "rematch", type: "button", class: "primary big" }, "Rematch: same players, new game");
      rematch.addEventListener("click", () => ui.act("rematchLobby", { lobbyId }, rematch));
      parts.push(rematch);
    } else {
      parts.push(h("p", { class: "muted" }, "The host may start a rematch; this screen follows it."));
    }
    return h("section", { class: "card", id: "match-over" }, ...parts);
  }

  /** The creator started a rematch: a player's seat is there already (joining takes it), a spectator
   * watches. */
  async function followRematch(next, watching) {
    const mine = me();
    if (watching || !mine) return { kind: "lobby", code: next, watching: true };
    const user = { username: mine.username, colorNumber: mine.colorNumber, emojiNumber: mine.emojiNumber };
    const joined = await connection.request("joinLobby", { lobbyCode: next, user });
    return { kind: "lobby", code: next, lobbyId: joined.lobbyId };
  }

  function players() {
    const playing = lobby.status === "GAME";
    return h("section", { class: "card" },
      h("h2", {}, "Players"),
      h("ul", { class: "players", id: "players" }, lobby.players.map((player) =>
        h("li", { dataset: { player: player.userId } },
          presenceDot(player.userId, ui.presence), avatar(player),
          h("span", { class: "name" }, player.username, player.userId === connection.userId ? " (you)" : ""),
          player.isCreator ? h("span", { class: "tag" }, "host") : null,
          playing ? h("span", { class: "muted" }, count(player.wordCount ?? 0, "word")) : null,
          h("span", { class: "num score" }, String(player.score))))));
  }

  function results(round) {
    return h("section", { class: "card", id: "round-results" },
      h("div", { class: "eyebrow" }, `Round ${round.number} results`),
      h("h2", {}, round.gameName),
      h("ol", { class: "results" }, [...round.players].sort((a, b) => b.points - a.points).map((player) =>
        h("li", {},
          h("div", { class: "result-head" }, h("span", { class: "name" }, player.username),
            h("span", { class: "num" }, `+${player.points} · total ${player.total}`)),
          h("ul", { class: "words compact" }, player.words.map((entry) =>
            h("li", { class: entry.accepted ? "accepted" : "rejected", title: entry.reason ?? "" },
              h("span", { class: "word" }, entry.word), h("span", { class: "points" }, entry.accepted ? `+${entry.points}` : "✗"))))))));
  }

  return {
    dispose() {
      clearInterval(ticker);
      dispose();
    },
  };
}
