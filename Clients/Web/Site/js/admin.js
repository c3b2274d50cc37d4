// The operator's live view (GET /admin): the server's figures, its live games and connections, one
// game watched as its players see it, and two actions — close a game, disconnect a client — each with
// a reason. Everything comes from /admin/api/… with the admin token, which the operator pastes once;
// it is kept in sessionStorage (gone when the tab closes) and sent as Authorization: Bearer.
//
// The page polls every two seconds rather than holding a WebSocket: the admin port speaks plain HTTP
// only (so this page works when client connections are exhausted), a poll costs the server one
// request, and a watched game's view changes at most a few times a second at a party table.

import { h, fill } from "./dom.js";

const tokenKey = "parlor.adminToken";
const pollMilliseconds = 2000;

const main = document.getElementById("main");
const noticeElement = document.getElementById("notice");

/** The game in the address's fragment (`/admin#watch=rummy/A1B2C3`), so a reload keeps watching it. */
function watchingFromAddress() {
  const match = /^#watch=([a-z-]+)\/([A-Za-z0-9]+)$/.exec(location.hash);
  return match ? { kind: match[1], code: match[2] } : null;
}

function setWatching(watching) {
  page.watching = watching;
  page.game = null;
  history.replaceState(null, "", watching ? `#watch=${watching.kind}/${watching.code}` : location.pathname);
}

const page = {
  token: sessionStorage.getItem(tokenKey),
  /** {kind, code} of the game being watched, or null. */
  watching: watchingFromAddress(),
  timer: null,
  overview: null,
  connections: null,
  game: null,
  refused: false,
};

class RefusedError extends Error {}

/** A request to the admin API; the token's refusal ends the session, any other error is the server's sentence. */
async function api(method, path, body) {
  const response = await fetch(`/admin/api/${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${page.token}`,
      ...(body ? { "Content-Type": "application/json" } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
    cache: "no-store",
  });
  if (response.status === 401) throw new RefusedError("refused");
  if (response.status === 204) return null;
  const data = await response.json().catch(() => null);
  if (!response.ok) throw new Error(data?.error?.message ?? `The server answered ${response.status}.`);
  return data;
}

function notice(text, kind = "") {
  noticeElement.textContent = text;
  noticeElement.className = `notice ${kind}`;
  noticeElement.hidden = false;
  clearTimeout(notice.timer);
  notice.timer = setTimeout(() => { noticeElement.hidden = true; }, 4000);
}

// MARK: The token

function showTokenForm() {
  clearTimeout(page.timer);
  document.body.dataset.screen = "token";
  const input = h("input", {
    id: "admin-token", type: "password", autocomplete: "off", spellcheck: "false", required: true,
    placeholder: "admin token", "aria-label": "Admin token",
  });
  const form = h("form", { class: "card", id: "token-form" },
    h("h1", {}, "Parlor · operator"),
    h("p", { class: "muted" },
      "Paste the admin token: the one given with --admin-token, or the one parlor-server printed at start-up (admin token: …)."),
    page.refused ? h("p", { class: "bad", id: "token-refused", role: "alert" }, "That token was refused.") : null,
    input,
    h("button", { class: "primary big", type: "submit" }, "Open"));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const token = input.value.trim();
    if (!token) return;
    page.token = token;
    sessionStorage.setItem(tokenKey, token);
    page.refused = false;
    refresh();
  });
  fill(main, form);
  input.focus();
}

function forget(refused) {
  page.token = null;
  page.refused = refused;
  page.overview = page.connections = null;
  setWatching(null);
  sessionStorage.removeItem(tokenKey);
  showTokenForm();
}

// MARK: Polling

async function refresh() {
  clearTimeout(page.timer);
  if (!page.token) return showTokenForm();
  try {
    const watching = page.watching;
    const [overview, connections, game] = await Promise.all([
      api("GET", "overview"),
      api("GET", "connections"),
      watching ? api("GET", `games/${encodeURIComponent(watching.kind)}/${encodeURIComponent(watching.code)}`)
        .catch((error) => ({ gone: error.message })) : null,
    ]);
    if (!page.token) return;  // Forgotten while the answers were on their way.
    Object.assign(page, { overview, connections, game });
    render();
  } catch (error) {
    if (error instanceof RefusedError) return forget(true);
    notice(`Could not reach the server: ${error.message}`, "error");
  }
  page.timer = setTimeout(refresh, pollMilliseconds);
}

// MARK: Rendering
//
// The page is laid out once per sign-in; each refresh fills the parts that show figures, so what the
// operator is typing (a reason) and where the focus is survive the refreshes.

const rate = (value) => (value >= 10 ? value.toFixed(0) : value.toFixed(1));
const milliseconds = (seconds) => (seconds == null ? "–" : `≤ ${(seconds * 1000).toFixed(seconds < 0.001 ? 2 : 0)} ms`);

const layout = {};

function lay() {
  document.body.dataset.screen = "admin";
  layout.figures = h("section", { class: "card", id: "figures" });
  layout.kinds = h("section", { class: "card table-wrap", id: "kinds" });
  layout.watched = h("section", { class: "card", id: "watched", hidden: true });
  layout.games = h("section", { class: "card", id: "games" });
  layout.connectionsTitle = h("h2", {});
  layout.connectionsBody = h("div", { class: "stack" });
  layout.disconnectReason = h("input", {
    id: "disconnect-reason", maxlength: 120, placeholder: "reason for disconnecting", "aria-label": "Reason for disconnecting",
  });
  layout.watchedKey = null;
  fill(main,
    h("header", { class: "admin-header" },
      h("h1", {}, "Parlor · operator"),
      h("button", { type: "button", class: "quiet", onclick: () => forget(false) }, "Forget token")),
    layout.figures,
    layout.kinds,
    layout.watched,
    layout.games,
    h("section", { class: "card", id: "connections" }, layout.connectionsTitle, layout.disconnectReason, layout.connectionsBody));
}

function render() {
  if (document.body.dataset.screen !== "admin" || !main.contains(layout.figures)) lay();
  const { overview, connections } = page;
  fill(layout.figures, figures(overview));
  fill(layout.kinds, kinds(overview));
  watched();
  fill(layout.games, games(overview));
  connectionList(connections);
}

function figure(label, value, id) {
  return h("div", { class: "figure", dataset: { figure: id } }, h("span", { class: "eyebrow" }, label), h("b", {}, value));
}

function figures(overview) {
  const r = overview.rates;
  const window = r.windowSeconds > 0 ? `per second over the last ${rate(r.windowSeconds)} s` : "rates start with the next refresh";
  return [
    h("div", { class: "figures" },
      figure("Connections", overview.connections, "connections"),
      figure("Users online", overview.connectedUsers, "users"),
      figure("Subscriptions", overview.subscriptions, "subscriptions"),
      figure("Requests / s", rate(r.operationsPerSecond), "operations"),
      figure("Errors / s", rate(r.errorsPerSecond), "errors"),
      figure("Latency p50", milliseconds(r.latencyP50Seconds), "p50"),
      figure("Latency p99", milliseconds(r.latencyP99Seconds), "p99"),
      figure("Store commits / s", rate(r.storeCommitsPerSecond), "commits")),
    h("p", { class: "muted small" }, window),
  ];
}

function kinds(overview) {
  const phases = ["waiting", "playing", "finished"];
  const rows = Object.entries(overview.games).sort(([a], [b]) => a.localeCompare(b));
  return h("table", { class: "admin-table" },
    h("thead", {}, h("tr", {}, h("th", {}, "Games"), phases.map((phase) => h("th", { class: "num" }, phase)))),
    h("tbody", {}, rows.map(([kind, counts]) =>
      h("tr", {}, h("th", {}, kind), phases.map((phase) => h("td", { class: "num" }, counts[phase] ?? 0))))));
}

function members(list) {
  if (list.length === 0) return h("span", { class: "muted" }, "nobody");
  return h("span", { class: "members" }, list.map((member) =>
    h("span", { class: "member", title: member.userId },
      h("span", { class: `dot ${member.connected ? "online" : "away"}`, "aria-label": member.connected ? "connected" : "away" }),
      member.userId.slice(0, 8))));
}

function games(overview) {
  const watch = (game) => () => {
    setWatching({ kind: game.kind, code: game.code });
    refresh();
  };
  return [
    h("h2", {}, `Live games (${overview.list.length}${overview.truncated ? "+" : ""})`),
    overview.list.length === 0 ? h("p", { class: "muted" }, "No game is being played.") :
      h("ul", { class: "game-list" }, overview.list.map((game) =>
        h("li", { dataset: { code: game.code, kind: game.kind } },
          h("div", { class: "game-line" },
            h("b", { class: "code" }, game.code),
            h("span", { class: "tag" }, game.kind),
            h("span", { class: "tag" }, game.phase),
            h("span", { class: "muted" }, `v${game.version} · ${game.subscribers} watching`),
            h("button", { type: "button", class: "watch", onclick: watch(game) }, "Watch")),
          members(game.members)))),
  ];
}

/** The watched game: its header and close form are made once per game; its figures and view each refresh. */
function watched() {
  const section = layout.watched;
  if (!page.watching) {
    section.hidden = true;
    layout.watchedKey = null;
    return;
  }
  const { kind, code } = page.watching;
  const key = `${kind}/${code}`;
  if (layout.watchedKey !== key) {
    layout.watchedKey = key;
    layout.watchedBody = h("div", { class: "stack" });
    const reason = h("input", { id: "close-reason", maxlength: 120, placeholder: "reason the players will see", "aria-label": "Reason for closing" });
    const stop = () => { setWatching(null); watched(); };
    const close = async (event) => {
      event.preventDefault();
      if (!reason.value.trim()) return notice("Say why, in a few words: the players see it.", "error");
      try {
        await api("POST", `games/${encodeURIComponent(kind)}/${encodeURIComponent(code)}/close`, { reason: reason.value.trim() });
        notice(`Closed ${code}.`);
        stop();
        refresh();
      } catch (error) {
        if (error instanceof RefusedError) return forget(true);
        notice(error.message, "error");
      }
    };
    layout.closeForm = h("form", { class: "row action", onsubmit: close }, reason,
      h("button", { class: "danger", type: "submit" }, "Close game"));
    fill(section,
      h("div", { class: "game-header" }, h("h2", {}, `Watching ${kind} ${code}`), h("button", { type: "button", onclick: stop }, "Stop")),
      layout.watchedBody,
      layout.closeForm);
  }
  section.hidden = false;
  if (!page.game || page.game.gone) {
    layout.closeForm.hidden = Boolean(page.game?.gone);
    fill(layout.watchedBody, h("p", { class: "muted" }, page.game?.gone ?? "Loading…"));
    return;
  }
  const { game, view } = page.game;
  layout.closeForm.hidden = false;
  fill(layout.watchedBody,
    h("p", {}, h("span", { class: "tag" }, game.phase), ` version ${game.version} · ${game.subscribers} watching`),
    members(game.members),
    h("pre", { class: "view" }, JSON.stringify(view, null, 2)));
}

function connectionList(list) {
  const reason = layout.disconnectReason;
  const disconnect = (connection) => async () => {
    if (!reason.value.trim()) return notice("Say why, in a few words: the client is shown it.", "error");
    try {
      await api("POST", `connections/${connection.id}/disconnect`, { reason: reason.value.trim() });
      notice(`Disconnected connection ${connection.id}.`);
      refresh();
    } catch (error) {
      if (error instanceof RefusedError) return forget(true);
      notice(error.message, "error");
    }
  };
  layout.connectionsTitle.textContent = `Connections (${list.total})`;
  reason.hidden = list.connections.length === 0;
  fill(layout.connectionsBody,
    list.connections.length === 0 ? h("p", { class: "muted" }, "Nobody is connected.") :
      h("ul", { class: "connection-list" }, list.connections.map((connection) =>
        h("li", { dataset: { connection: connection.id } },
          h("span", { class: "num" }, `#${connection.id}`),
          h("span", { class: "who", title: connection.userId ?? "" }, connection.userId ? connection.userId.slice(0, 8) : "not signed in"),
          h("span", { class: "muted" }, `${connection.address ?? "?"} · ${connection.subscriptions} subs`),
          h("button", { type: "button", class: "danger", onclick: disconnect(connection) }, "Disconnect")))),
    list.truncated ? h("p", { class: "muted" }, `Showing the oldest ${list.connections.length}.`) : null);
}

refresh();
