// The app: one connection, one screen at a time (home, a rummy room, a word game), the offline
// banner, and the message line every screen reports through.

import { Connection } from "./connection.js";
import { h, fill } from "./dom.js";
import { describe } from "./errors.js";
import { currentPlace, savePlace } from "./place.js";
import { showHome } from "./home.js";
import { showRoom } from "./room.js";
import { showLobby } from "./lobby.js";
import { showMatch } from "./match.js";
import { showQuiz } from "./quiz.js";

const screens = { room: showRoom, lobby: showLobby, match: showMatch, quiz: showQuiz };

const banner = document.getElementById("connection");
const main = document.getElementById("main");
const notice = document.getElementById("notice");

const protocol = location.protocol === "https:" ? "wss:" : "ws:";
const connection = new Connection({ url: `${protocol}//${location.host}/ws` });
// For the browser tests and the curious: `parlor.connection.drop()` acts out a lost network.
window.parlor = { connection };

connection.addEventListener("state", () => showState());
function showState() {
  const state = connection.state;
  document.body.dataset.connection = state;
  banner.hidden = state === "online";
  fill(banner, state === "connecting" ? "Connecting…" : "Offline — reconnecting…");
}
showState();

let current = null;
let noticeTimer = null;

const context = {
  connection,
  /** Shows a game (or home, with null) and remembers it for the next visit. */
  go(place, options = {}) {
    savePlace(place);
    render(place, options);
  },
  /** Tells the player something; an error is described by its code and carries it as `data-code`. */
  say(message, { error = false } = {}) {
    clearTimeout(noticeTimer);
    const text = message instanceof Error || (message && message.code) ? describe(message) : String(message);
    notice.className = error ? "notice error" : "notice";
    notice.dataset.code = message?.code ?? "";
    fill(notice, text);
    notice.hidden = false;
    noticeTimer = setTimeout(() => (notice.hidden = true), error ? 8000 : 4000);
  },
  fail(error) {
    context.say(error, { error: true });
  },
  clearNotice() {
    notice.hidden = true;
  },
};

function render(place, options) {
  current?.dispose?.();
  current = null;
  fill(main);
  context.clearNotice();
  const show = place ? screens[place.kind] : null;
  document.body.dataset.screen = place?.kind ?? "home";
  current = show ? show(main, context, place) : showHome(main, context, options);
}

notice.addEventListener("click", () => (notice.hidden = true));

connection.start().then(() => {
  const code = new URLSearchParams(location.search).get("code");
  const place = currentPlace();
  // A join link for the game this phone is already at simply returns to it.
  if (place && (!code || code.toUpperCase() === place.code)) render(place, {});
  else render(null, { code });
});
