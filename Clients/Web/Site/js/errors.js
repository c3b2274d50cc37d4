// What an error means to a player, by its stable code (docs/PROTOCOL.md, "Errors"); an unknown code
// falls back to its canonical status, as the protocol asks, and then to the server's own sentence.

const byCode = {
  ROOM_NOT_FOUND: "There is no room with that code.",
  LOBBY_NOT_FOUND: "There is no word game with that code.",
  ROOM_FULL: "Every seat at that table is taken.",
  LOBBY_FULL: "Every seat in that word game is taken.",
  LOBBY_NOT_OPEN: "A round is running; join when it ends.",
  NOT_MODERATOR: "Only the moderator can do that.",
  NOT_LOBBY_CREATOR: "Only the host starts rounds.",
  NOT_LOBBY_MEMBER: "You are not in this word game.",
  INVALID_ROOM_CODE: "A room code is 6 letters and digits.",
  ROUND_NOT_RUNNING: "The round is over.",
  MATCH_NOT_FOUND: "There is no darts match with that code.",
  MATCH_FULL: "Every seat in that match is taken.",
  NOT_HOST: "Only the host (or the player throwing) can do that.",
  TOO_MANY_WORDS: "That is the most words one round takes.",
  QUOTA_EXCEEDED: "You are already in as many games as one player may be; leave one first.",
  RATE_LIMITED: "Slow down a little.",
  SHUTTING_DOWN: "The server is restarting; reconnecting…",
  UNAUTHENTICATED: "Signing in again…",
  NO_FREE_CODE: "The server is full right now; try again later.",
  QUIZ_NOT_FOUND: "There is no photo quiz with that code.",
  QUIZ_FULL: "Every seat in that quiz is taken.",
  NOT_QUIZ_MEMBER: "You are not playing in this quiz.",
  NO_PHOTOS: "Upload a photo before starting.",
  TOO_MANY_PHOTOS: "The quiz holds 100 photos already.",
  OWN_PHOTO: "That is your photo: the others guess it.",
  NO_LOCATION: "That photo does not say where it was taken (no GPS position); choose another.",
  NOT_JPEG: "That is not a JPEG photo.",
  INVALID_IMAGE: "That photo cannot be read, or it is too small.",
  UPLOADS_BUSY: "The server is busy with other photos; try again in a moment.",
  REQUEST_TOO_LARGE: "That photo is too large (15 MB at most).",
  PLACES_UNAVAILABLE: "This server has no list of places: tap the map instead.",
  // The client's own: no connection, or no answer in time.
  OFFLINE: "You are offline; try again when the connection is back.",
  TIMEOUT: "The server did not answer; try again.",
};

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
  const precise = ["INVALID_INPUT", "BAD_REQUEST", "INVALID_STATE", "NOT_YOUR_TURN", "INVALID_DARTS"];
  if (precise.includes(error.code) && error.message) return error.message;
  return byCode[error.code] ?? byStatus[error.status] ?? error.message ?? "Something went wrong.";
}

/** What a player is told when their game's stream ends: the operator's reason when they closed it. */
export function closedSentence(sentence, reason) {
  return reason ? `${sentence.replace(/\.$/, "")} by the server's operator: ${reason}` : sentence;
}
