// Your games: the finished games this browser's player played (`listHistory`), newest first, each with
// its players and points and a link to its replay (`/replay/CODE`). Shown on home once there is one.

import { h } from "./dom.js";
import { games } from "./games.js";
import { replayLink } from "./replay.js";

/** Games listed on home; the rest wait behind "More". */
const pageSize = 10;

export function historyCard(context) {
  const { connection } = context;
  const list = h("ul", { class: "players", id: "history" });
  const more = h("button", { type: "button", id: "history-more", hidden: true }, "More");
  const card = h("section", { class: "card", id: "history-card", hidden: true },
    h("h2", {}, "Your games"), list, more);
  let cursor = null;

  async function load() {
    more.disabled = true;
    try {
      const page = await connection.request("listHistory", cursor ? { limit: pageSize, cursor } : { limit: pageSize });
      list.append(...page.games.map(entry));
      cursor = page.nextCursor ?? null;
      more.hidden = cursor === null;
      card.hidden = list.childElementCount === 0;
    } catch (error) {
      // Home works without the list; asking for more says why it failed.
      if (cursor) context.fail(error);
    } finally {
      more.disabled = false;
    }
  }
  more.addEventListener("click", load);
  load();
  return card;
}

/** One finished game: what it was, when, who played with their points, and its replay. */
function entry(game) {
  const noun = games.find((candidate) => candidate.record?.kind === game.kind)?.noun ?? game.kind;
  const when = new Date(game.finishedAt).toLocaleString([], { dateStyle: "medium", timeStyle: "short" });
  const players = game.players.map((player) => `${player.name} ${player.points}`).join(", ");
  return h("li", { dataset: { code: game.code } },
    h("span", { class: "name" }, `${noun} ${game.code} · ${when}`, h("br"), h("span", { class: "muted small" }, players)),
    h("span", { class: "tag" }, game.result),
    h("a", { href: replayLink(game.code), class: "replay-link" }, "Replay"));
}
