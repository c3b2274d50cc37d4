// The app: one connection, one screen at a time (home, a game's page, or a finished game's replay at
// `/replay/CODE`), the offline banner, the message line every screen reports through, and the address
// that carries the game's code.

import { keepAccountSignIn, takeHandedOverToken } from "./account.js";
import { Connection } from "./connection.js";
import { fill } from "./dom.js";
import { describe, learnSentences } from "./errors.js";
import { gameOfKind, games, withGameOfCode } from "./games.js";
import { addressedCode, currentPlace, savePlace, showInAddress } from "./place.js";
import { showHome } from "./home.js";
import { replayCode, showReplay } from "./replay.js";

for (const game of games) learnSentences(game.errors, game.precise);

const banner = document.getElementById("connection");
const main = document.getElementById("main");
const notice = document.getElementById("notice");

const protocol = location.protocol === "https:" ? "wss:" : "ws:";
// An app that opened this page may hand its player's account over in the fragment (`#jwt=…`): taken
// out of the address before anything else reads it.
const connection = new Connection({ url: `${protocol}//${location.host}/ws`, jwt: takeHandedOverToken() });
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
  say(message, { error = false, sticky = false } = {}) {
    clearTimeout(noticeTimer);
    const text = message instanceof Error || (message && message.code) ? describe(message) : String(message);
    notice.className = error ? "notice error" : "notice";
    notice.dataset.code = message?.code ?? "";
    fill(notice, text);
    notice.hidden = false;
    // A sticky notice (the sign-in expired) stays until the next one or a click.
    if (!sticky) noticeTimer = setTimeout(() => (notice.hidden = true), error ? 8000 : 4000);
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
  const game = place ? gameOfKind(place.kind) : null;
  document.body.dataset.screen = game ? place.kind : "home";
  if (game) showInAddress(place.code);
  else if (place === null && (addressedCode() || replayCode())) showInAddress(null);
  current = game ? game.show(main, context, place, game) : showHome(main, context, options);
}

notice.addEventListener("click", () => (notice.hidden = true));
keepAccountSignIn(connection, context);

connection.start().then(async () => {
  // A join link (`/?code=ABCD`), or an invitation's (`/join/ABCD?invite=…`: js/access.js), which joins
  // a private game.
  const query = new URLSearchParams(location.search);
  const invitation = /^\/join\/([A-Za-z0-9]{1,12})$/.exec(location.pathname);
  const code = invitation ? invitation[1] : query.get("code");
  const invite = invitation ? query.get("invite") : null;
  const addressed = addressedCode();
  const place = currentPlace();
  const replaying = replayCode();
  if (replaying) {
    // A replay's address: the finished game, step by step; the seat this phone keeps stays kept.
    current = showReplay(main, context, replaying);
  } else if (addressed && addressed !== place?.code) {
    // A shared address of a game this phone is not at: watch it (joining is the join link's).
    try {
      context.go(await withGameOfCode(addressed, (game) => game.watch(connection, addressed)));
    } catch (error) {
      context.go(null, { code: addressed });
      context.fail(error);
    }
  } else if (place && (!code || code.toUpperCase() === place.code)) {
    // A reload, or a join link for the game this phone is already at, simply returns to it.
    render(place, {});
  } else {
    render(null, { code, invite });
  }
});
