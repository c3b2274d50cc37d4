// What an error means to a player, by its stable code (docs/PROTOCOL.md, "Errors"); an unknown code
// falls back to its canonical status, as the protocol asks, and then to the server's own sentence.

// The codes every game may answer with; each game adds its own (`learnSentences`).
const byCode = {
  QUOTA_EXCEEDED: "You are already in as many games as one player may be; leave one first.",
  RATE_LIMITED: "Slow down a little.",
  SHUTTING_DOWN: "The server is restarting; reconnecting…",
  UNAUTHENTICATED: "Signing in again…",
  // Signed in with the app's account (js/account.js).
  TOKEN_EXPIRED: "Your sign-in has expired: sign in again in the app to keep playing.",
  INVALID_TOKEN: "The app's sign-in was not accepted; you play as this device for now.",
  NO_FREE_CODE: "The server is full right now; try again later.",
  // Who may join and watch a game (js/access.js).
  NOT_INVITED: "This game is private: join it with an invitation from its host.",
  GAME_LOCKED: "The host has locked this game: nobody else can join now.",
  SPECTATORS_NOT_ALLOWED: "The host of this game does not let you watch it.",
  NOT_HOST: "Only the game's host can do that.",
  // The client's own: no connection, or no answer in time.
  OFFLINE: "You are offline; try again when the connection is back.",
  TIMEOUT: "The server did not answer; try again.",
};

// Codes where the server's message is the most precise sentence.
const precise = new Set(["INVALID_INPUT", "BAD_REQUEST", "INVALID_STATE", "NOT_YOUR_TURN"]);

/** A game's sentences for its own codes, and the codes whose server message it keeps. */
export function learnSentences(sentences = {}, preciseCodes = []) {
  Object.assign(byCode, sentences);
  for (const code of preciseCodes) precise.add(code);
}

const byStatus = {
  "not-found": "That no longer exists.",
  "permission-denied": "You are not allowed to do that.",
  "failed-precondition": "That is not possible right now.",
  "resource-exhausted": "Too much at once; try again in a moment.",
  unavailable: "The server is unavailable; try again in a moment.",
  internal: "The server could not do that; nothing was changed.",
};

/** A sentence for a player; codes where the server's message is the most precise keep it. */
export function describe(error) {
  if (!error) return "Something went wrong.";
  if (precise.has(error.code) && error.message) return error.message;
  return byCode[error.code] ?? byStatus[error.status] ?? error.message ?? "Something went wrong.";
}

/** What a player is told when their game's stream ends: the operator's reason when they closed it. */
export function closedSentence(sentence, reason) {
  return reason ? `${sentence.replace(/\.$/, "")} by the server's operator: ${reason}` : sentence;
}
