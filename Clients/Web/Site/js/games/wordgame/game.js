// Word games, as the browser offers them: the code's shape, the button that opens a lobby, joining and
// watching by code, the page (lobby.js) and what its error codes mean.

import { showLobby } from "./lobby.js";

/** Profile numbers the server keeps for a word-game player: a colour (0–15) and an emoji (0–63). */
function wordProfile(name) {
  let hash = 0;
  for (const char of name) hash = (hash * 31 + char.codePointAt(0)) >>> 0;
  return { username: name, colorNumber: hash % 16, emojiNumber: (hash >>> 4) % 64 };
}

export const wordGame = {
  kind: "lobby",
  // Its finished games' records (replay.js): the kind the server names them by, and who the ids of a
  // step's view are.
  record: { kind: "word-lobby", names: (view) => view.players.map((player) => [player.userId, player.username]) },
  noun: "word game",
  codes: { pattern: /^[A-Z]{4}$/, shape: "4 letters", owner: "a word game" },
  show: showLobby,
  errors: {
    LOBBY_NOT_FOUND: "There is no word game with that code.",
    LOBBY_FULL: "Every seat in that word game is taken.",
    LOBBY_NOT_OPEN: "A round is running; join when it ends.",
    NOT_LOBBY_CREATOR: "Only the host starts rounds.",
    NOT_LOBBY_MEMBER: "You are not in this word game.",
    ROUND_NOT_RUNNING: "The round is over.",
    TOO_MANY_WORDS: "That is the most words one round takes.",
  },
  async join(connection, code, playerName, access = {}) {
    const joined = await connection.request("joinLobby", { lobbyCode: code, user: wordProfile(playerName), ...access });
    return { kind: "lobby", code, lobbyId: joined.lobbyId };
  },
  // A spectator follows the lobby by its code; the page says so if there is none.
  async watch(_connection, code) {
    return { kind: "lobby", code, watching: true };
  },
  start() {
    return {
      id: "create-lobby", label: "New word game",
      async create(connection, playerName, access = {}) {
        const created = await connection.request("createLobby", { user: wordProfile(playerName), ...access });
        return { kind: "lobby", code: created.lobbyCode, lobbyId: created.lobbyId };
      },
    };
  },
};
