// Tic-tac-toe, as the browser offers it: 7-digit codes, the button that starts a game, joining and
// watching by code, the page (tictactoe.js) and what its error codes mean.

import { showTicTacToe } from "./tictactoe.js";

export const ticTacToe = {
  kind: "tictactoe",
  // Its finished games' records (replay.js): the kind the server names them by, and who the ids of a
  // step's view are.
  record: { kind: "tic-tac-toe", names: (view) => view.players.map((player) => [player.playerId, player.name]) },
  noun: "tic-tac-toe game",
  codes: { pattern: /^[0-9]{7}$/, shape: "7 digits", owner: "a tic-tac-toe game" },
  show: showTicTacToe,
  errors: {
    TICTACTOE_NOT_FOUND: "There is no tic-tac-toe game with that code.",
    TICTACTOE_FULL: "Both seats of that game are taken.",
  },
  // The server's sentence names the cell or the player to play.
  precise: ["CELL_TAKEN"],
  async join(connection, code, playerName, access = {}) {
    await connection.request("joinTicTacToe", { code, playerName, ...access });
    return { kind: "tictactoe", code };
  },
  async watch(connection, code) {
    await connection.request("getTicTacToe", { code });
    return { kind: "tictactoe", code, watching: true };
  },
  start() {
    return {
      id: "create-tictactoe", label: "New tic-tac-toe game",
      async create(connection, playerName, access = {}) {
        const created = await connection.request("createTicTacToe", { playerName, ...access });
        return { kind: "tictactoe", code: created.ticTacToe.code };
      },
    };
  },
};
