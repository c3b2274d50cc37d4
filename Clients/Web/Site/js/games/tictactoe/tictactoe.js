// A tic-tac-toe game (docs/PROTOCOL.md, "Tic-tac-toe"): the two players, the board whose free cells the
// player to play taps, the outcome with the winning line, and either player's rematch. Everything else —
// the header, sharing, the stream, presence, following the rematch, leaving — is the shell's.

import { h } from "../../dom.js";
import { presenceDot } from "../../presence.js";
import { gamePage } from "../../shell.js";

export function showTicTacToe(root, context, place, game) {
  const { connection } = context;
  const code = place.code;
  ensureStyles();

  const { ui, dispose } = gamePage(root, context, place, game, {
    codeId: "ttt-code", bodyId: "tictactoe",
    eyebrow: (_, watching) => (watching ? "Watching tic-tac-toe" : "Tic-tac-toe"),
    observe: { op: "observeTicTacToe", args: { code }, viewEvent: "ticTacToe", closed: "The game was closed." },
    viewOf: (result) => (result && result.board ? result : null),
    isMember: (view, userId) => view.players.some((player) => player.playerId === userId),
    rematchOf: (view) => view.rematchCode ?? null,
    // Tic-tac-toe's first player owns the board; the role is not handed over.
    handover: false,
    kick: {
      host: (view) => view.players[0]?.playerId,
      seats: (view) => view.players.map((player) => ({ id: player.playerId, name: player.name })),
      allowed: (view) => view.status === "playing",
      op: "removeTicTacToePlayer", args: (playerId) => ({ code, playerId }),
    },
    leave: (view) => (view.status === "waiting" || view.status === "playing"
      ? { confirm: view.status === "playing" ? "Leave this game? The other player wins." : "Leave this game?", op: "leaveTicTacToe", args: { code } }
      : null),
    draw,
  });

  function draw() {
    const view = ui.view;
    const name = (userId) => view.players.find((player) => player.playerId === userId)?.name ?? "Someone";
    const mine = view.players.find((player) => player.playerId === connection.userId);
    const myTurn = view.status === "playing" && view.next === connection.userId;
    const players = h("ul", { class: "players", id: "ttt-players" }, view.players.map((player) =>
      h("li", { dataset: { player: player.playerId } },
        presenceDot(player.playerId, ui.presence),
        h("span", { class: "ttt-mark" }, player.mark),
        h("span", { class: "name" }, player.name, player.playerId === connection.userId ? " (you)" : ""),
        player.playerId === view.next ? h("span", { class: "tag" }, "to play") : null,
        player.playerId === view.winner ? h("span", { class: "tag win" }, "winner") : null)));
    const status = h("p", { class: "status", id: "ttt-status" }, statusLine(view, myTurn, name));
    const winning = new Set(view.line ?? []);
    const board = h("div", { class: "ttt-board", id: "ttt-board", role: "grid" }, view.board.map((mark, cell) => {
      const button = h("button", {
        type: "button", class: winning.has(cell) ? "ttt-cell won" : "ttt-cell", dataset: { cell: String(cell) },
        "aria-label": mark ? `Cell ${cell + 1}: ${mark}` : `Cell ${cell + 1}`, disabled: !myTurn || mark !== "",
      }, mark);
      button.addEventListener("click", () => ui.act("placeMark", { code, cell }, button));
      return button;
    }));
    const parts = [status, board, h("section", { class: "card" }, players)];
    if (view.status === "waiting") {
      parts.push(h("p", { class: "muted", id: "ttt-waiting" }, "Waiting for a second player: share the code."));
    }
    if ((view.status === "won" || view.status === "draw") && mine) {
      const rematch = h("button", { id: "rematch", type: "button", class: "primary big" }, "Rematch: play again");
      rematch.addEventListener("click", () => ui.act("rematchTicTacToe", { code }, rematch));
      parts.push(rematch);
    }
    return parts;
  }

  return { dispose };
}

function statusLine(view, myTurn, name) {
  switch (view.status) {
    case "waiting": return "Waiting for a second player.";
    case "won": return view.winner ? `${name(view.winner)} wins!` : "Won.";
    case "draw": return "A draw.";
    default: return myTurn ? "Your turn." : `${name(view.next)} to play.`;
  }
}

/** The board's styles, from this game's folder, added once. */
function ensureStyles() {
  if (document.getElementById("ttt-styles")) return;
  document.head.append(h("link", { id: "ttt-styles", rel: "stylesheet", href: "/web/js/games/tictactoe/board.css" }));
}
