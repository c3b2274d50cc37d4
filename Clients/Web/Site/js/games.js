// The games the browser plays, each from its folder under games/ (the browser's one registration line),
// and what a code says about its game.

import { rummy } from "./games/rummy/game.js";
import { wordGame } from "./games/wordgame/game.js";
import { darts } from "./games/darts/game.js";
import { photoQuiz } from "./games/photoquiz/game.js";
import { ticTacToe } from "./games/tictactoe/game.js";

export const games = [rummy, wordGame, darts, photoQuiz, ticTacToe];

/** The game a place of this kind belongs to. */
export function gameOfKind(kind) {
  return games.find((game) => game.kind === kind) ?? null;
}

/** The games a code may belong to, most likely first: the one whose codes now have its shape (codes say
 * their kind), then any that gave out codes of that shape before. */
export function gamesForCode(code) {
  const text = code.trim().toUpperCase();
  const now = games.filter((game) => game.codes.pattern.test(text));
  const before = games.filter((game) => !now.includes(game) && game.codes.formerly?.test(text));
  return [...now, ...before];
}

/** "A code is 6 letters and digits (a rummy room), 4 letters (a word game), …". */
export function codeShapes() {
  const shapes = games.map((game) => `${game.codes.shape} (${game.codes.owner})`);
  return `A code is ${shapes.slice(0, -1).join(", ")} or ${shapes[shapes.length - 1]}.`;
}

/** `attempt(game)` for each game the code may belong to until one is found; the last refusal otherwise. */
export async function withGameOfCode(code, attempt) {
  const candidates = gamesForCode(code);
  if (candidates.length === 0) throw Object.assign(new Error(codeShapes()), { code: "" });
  for (const [index, game] of candidates.entries()) {
    try {
      return await attempt(game);
    } catch (error) {
      if (error.status !== "not-found" || index === candidates.length - 1) throw error;
    }
  }
}
