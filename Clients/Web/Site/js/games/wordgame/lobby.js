// A word game (docs/PROTOCOL.md, "Word lobbies"): the players and their scores, the host's start, and
// during a round the countdown from the server's deadline (measured on the server's clock, not this
// phone's), word entry with the server's verdict on each, this player's own list, and after it the
// round's results with everyone's words.

import { h, fill } from "../../dom.js";
import { followGame } from "../../follow.js";
import { clock, count } from "../../format.js";
import { presenceDot } from "../../presence.js";
import { sharePanel } from "../../share.js";

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

export function showLobby(root, context, place) {
  const { connection } = context;
  const { code } = place;
  // A spectator follows the lobby by its code (`watchLobby`): the public view, no words, no controls.
  const watching = place.watching === true;
  let lobbyId = place.lobbyId;
  let lobby = null;
  let words = [];
  let presence = new Map();
  let disposed = false;
  let fresh = false;
  let verdict = null;
  let leaving = false;
  let sharing = false;

  const shareButton = h("button", { type: "button", id: "share", "aria-expanded": "false" }, "Share");
  shareButton.addEventListener("click", () => {
    sharing = !sharing;
    shareButton.setAttribute("aria-expanded", String(sharing));
    fill(shareButton, sharing ? "Hide" : "Share");
    render();
  });
  const header = h("header", { class: "game-header" },
    h("div", {}, h("div", { class: "eyebrow" }, watching ? "Watching a word game" : "Word game"), h("h1", { class: "code", id: "lobby-code" }, code)),
    h("div", { class: "row" },
      shareButton,
      h("button", { type: "button", id: "leave", onclick: leave }, watching ? "Close" : "Leave")));
  const body = h("div", { id: "lobby", class: "stack" });
  root.append(header, body);

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
    const left = (Date.parse(lobby.round.deadline) - connection.serverNow()) / 1000;
    fill(countdown, clock(left));
    countdown.classList.toggle("urgent", left <= 10);
  }

  function me() {
    return lobby?.players.find((player) => player.userId === connection.userId) ?? null;
  }

  function render() {
    if (disposed || !lobby) return;
    const focused = document.activeElement === wordInput;
    const parts = [sharing ? sharePanel(code, context) : null];
    if (lobby.status === "GAME" && lobby.round) {
      const game = lobby.round.game;
      parts.push(h("section", { class: "card round" },
        h("div", { class: "round-top" },
          h("div", {}, h("div", { class: "eyebrow" }, roundLabel(lobby.round.number)), h("h2", { id: "game-name" }, game.name)),
          countdown),
        h("p", { class: "instructions" }, game.instructions || game.description || ""),
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
      parts.push(matchOver());
      if (lobby.lastRound) parts.push(results(lobby.lastRound));
    } else {
      const host = lobby.players.find((player) => player.userId === lobby.creator);
      if (lobby.creator === connection.userId && !watching) {
        const start = h("button", { id: "start-round", type: "button", class: "primary big" },
          lobby.lastRound ? "Start the next round" : "Start a round");
        start.addEventListener("click", async () => {
          start.disabled = true;
          try {
            await connection.request("startGame", gamePick.value ? { lobbyId, gameId: gamePick.value } : { lobbyId });
          } catch (error) {
            context.fail(error);
          } finally {
            start.disabled = false;
          }
        });
        loadCatalog();
        parts.push(h("section", { class: "card" }, h("label", {}, "Game", gamePick), start));
      } else {
        parts.push(h("p", { class: "status", id: "waiting" }, `Waiting for ${host?.username ?? "the host"} to start a round.`));
      }
      if (lobby.lastRound) parts.push(results(lobby.lastRound));
    }
    parts.push(players());
    fill(body, ...parts);
    if (focused) wordInput.focus({ preventScroll: true });
  }

  /** "Round 2 of 5", or "Round 2" for a lobby that plays on forever. */
  function roundLabel(number) {
    return lobby.rounds ? `Round ${number} of ${lobby.rounds}` : `Round ${number}`;
  }

  /** The match's end: who won, and for the creator the rematch (a new lobby, the same players). */
  function matchOver() {
    const names = (lobby.winners ?? []).map((id) => lobby.players.find((player) => player.userId === id)?.username ?? "someone");
    const top = Math.max(0, ...lobby.players.map((player) => player.score));
    const headline = names.length === 0 ? "Match over"
      : names.length === 1 ? `${names[0]} wins with ${count(top, "point")}` : `${names.join(" and ")} share the win with ${count(top, "point")}`;
    const parts = [h("div", { class: "eyebrow" }, "Match over"), h("h2", { id: "winners" }, headline)];
    if (lobby.creator === connection.userId && !watching) {
      const rematch = h("button", { id: "rematch", type: "button", class: "primary big" }, "Rematch: same players, new game");
      rematch.addEventListener("click", async () => {
        rematch.disabled = true;
        try {
          await connection.request("rematchLobby", { lobbyId });
        } catch (error) {
          context.fail(error);
        } finally {
          rematch.disabled = false;
        }
      });
      parts.push(rematch);
    } else {
      parts.push(h("p", { class: "muted" }, "The host may start a rematch; this screen follows it."));
    }
    return h("section", { class: "card", id: "match-over" }, ...parts);
  }

  /** The creator started a rematch: a player's seat is there already (joining takes it), a spectator watches. */
  let following = false;
  async function followRematch(next) {
    if (following) return;
    following = true;
    const mine = me();
    if (watching || !mine) {
      context.go({ kind: "lobby", code: next, watching: true });
      return;
    }
    try {
      const user = { username: mine.username, colorNumber: mine.colorNumber, emojiNumber: mine.emojiNumber };
      const joined = await connection.request("joinLobby", { lobbyCode: next, user });
      if (!disposed) context.go({ kind: "lobby", code: next, lobbyId: joined.lobbyId });
      context.say(`On to the rematch: word game ${next}.`);
    } catch (error) {
      following = false;
      context.fail(error);
    }
  }

  function players() {
    const playing = lobby.status === "GAME";
    return h("section", { class: "card" },
      h("h2", {}, "Players"),
      h("ul", { class: "players", id: "players" }, lobby.players.map((player) =>
        h("li", { dataset: { player: player.userId } },
          presenceDot(player.userId, presence), avatar(player),
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

  async function leave() {
    if (watching) {
      context.go(null);
      return;
    }
    if (!confirm("Leave this word game?")) return;
    leaving = true;
    try {
      await connection.request("leaveLobby", { lobbyId });
    } catch (error) {
      if (error.code !== "LOBBY_NOT_FOUND" && error.code !== "NOT_LOBBY_MEMBER") {
        leaving = false;
        context.fail(error);
        return;
      }
    }
    context.go(null);
  }

  function onView(data) {
    if (lobby && data.version < lobby.version) return;
    // The first view after observing may be old; later ones are published as they happen, so their
    // serverTime is the server's clock now.
    if (fresh) connection.noteServerTime(data.serverTime);
    fresh = true;
    const roundChanged = lobby?.round?.number !== data.round?.number;
    if (roundChanged) {
      verdict = null;
      showVerdict();
    }
    lobby = data;
    lobbyId = data.lobbyId ?? lobbyId;
    if (lobby.rematch) followRematch(lobby.rematch);
    render();
  }

  function onOther(event, data) {
    if (event === "lobbyPrivate") {
      if (lobby && data.version < lobby.version) return;
      words = data.words ?? [];
      render();
    } else if (event === "subscribed") {
      // Observed again after a reconnect: the stream starts over with a view that may be old.
      connection.noteServerTime(data.serverTime);
      fresh = false;
    } else if (event === "end" && !disposed && !leaving) {
      context.go(null);
    }
  }

  fill(body, h("p", { class: "muted" }, "Loading…"));
  const stream = followGame(context, {
    op: watching ? "watchLobby" : "observeLobby", args: watching ? { lobbyCode: code } : { lobbyId },
    viewEvent: "lobby", closed: "The word game was closed.",
    view: onView,
    presence(online) {
      presence = online;
      render();
    },
    other: onOther,
    subscribed: (result) => connection.noteServerTime(result.serverTime),
  });

  return {
    dispose() {
      disposed = true;
      clearInterval(ticker);
      stream.stop();
    },
  };
}
