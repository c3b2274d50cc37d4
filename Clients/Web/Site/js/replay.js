// A finished game's replay, at `/replay/CODE` (shareable): its record read from the server
// (`getGameRecord`, page by page), a slider over the steps, play and pause at the recorded pace (a long
// gap shortened) or four times faster, each step's time and who acted, and the game's own page drawing
// each step as this phone saw it then — the shell's replay mode (shell.js), so a player sees their own
// private part and nobody sees a secret before the step that revealed it. Nothing here knows a game: the
// record names its kind, and the game with that `record.kind` draws it.

import { h, fill } from "./dom.js";
import { describe } from "./errors.js";
import { games } from "./games.js";

/** Steps read per request (the server's most). */
const pageSize = 200;
/** The most steps a page holds in memory; a longer record is shown up to there, and says so. */
const maxSteps = 20000;
/** The longest wait between two steps when playing at the recorded pace. */
const longestGap = 3000;
/** The shortest (×4 too), so steps recorded in the same instant are still seen one by one. */
const shortestGap = 100;

/** The code a replay address names (`/replay/K7Q2ZD`), or null. */
export function replayCode(pathname = location.pathname) {
  const match = /^\/replay\/([A-Za-z0-9]{1,12})\/?$/.exec(pathname);
  return match ? match[1].toUpperCase() : null;
}

/** The address of a game's replay. */
export function replayLink(code) {
  return `/replay/${encodeURIComponent(code)}`;
}

/** Shows the replay of `code` in `root`; returns `{dispose}`. */
export function showReplay(root, context, code) {
  const { connection } = context;
  let disposed = false;
  let page = null;

  document.body.dataset.screen = "replay";
  // Home by loading the app afresh: the seat this phone keeps is left as it is.
  const home = h("a", { href: "/", id: "replay-home" }, "Home");
  const status = h("p", { class: "muted", id: "replay-status" }, `Loading the record of ${code}…`);
  root.append(h("section", { class: "card", id: "replay-loading" }, h("h1", { class: "code" }, code), status, home));

  load().then((record) => {
    if (disposed) return;
    fill(root);
    page = player(root, context, code, record);
  }, (error) => {
    if (disposed) return;
    // A game finished before records were kept, or not finished yet, or unknown: the server says which.
    status.className = "status";
    status.id = "replay-missing";
    status.dataset.code = error.code ?? "";
    fill(status, error.code === "RECORD_NOT_AVAILABLE" ? error.message : describe(error));
  });

  /** Every page of the record: `{kind, stepCount, frames, cut}`, frame 0 the game as it was created. */
  async function load() {
    const frames = [];
    let first = null;
    let from = 1;
    while (from !== undefined && !disposed) {
      const reply = await connection.request("getGameRecord", { code, from, limit: pageSize });
      first ??= reply;
      if (reply.initial) frames.push({ ...reply.initial, step: 0, at: reply.createdAt });
      frames.push(...reply.steps);
      if (frames.length > maxSteps) break;
      fill(status, `Loading the record of ${code}… ${frames.length - 1} of ${reply.stepCount} steps`);
      from = reply.nextFrom;
    }
    return { kind: first.kind, stepCount: first.stepCount, frames: frames.slice(0, maxSteps + 1), cut: frames.length > maxSteps };
  }

  return {
    dispose() {
      disposed = true;
      page?.dispose();
    },
  };
}

/** The replay's controls above the game's own page. */
function player(root, context, code, record) {
  const game = games.find((candidate) => candidate.record?.kind === record.kind);
  if (!game) {
    root.append(h("section", { class: "card" }, h("h1", { class: "code" }, code),
      h("p", { class: "status", id: "replay-missing" }, `This browser cannot show ${record.kind} games.`)));
    return { dispose() {} };
  }
  const { frames } = record;
  const last = frames.length - 1;
  let index = 0;
  let playing = false;
  let timer = null;
  let draw = null;

  const slider = h("input", {
    type: "range", id: "replay-slider", min: 0, max: last, value: 0, step: 1, "aria-label": "Step",
    oninput: () => go(Number(slider.value)),
  });
  const play = h("button", { type: "button", id: "replay-play", class: "primary", onclick: () => (playing ? pause() : start()) });
  const speed = h("select", { id: "replay-speed", "aria-label": "Speed" },
    h("option", { value: "1" }, "×1"), h("option", { value: "4" }, "×4"));
  const stepLine = h("span", { id: "replay-step", class: "num" });
  const timeLine = h("span", { id: "replay-time", class: "muted" });
  const actorLine = h("span", { id: "replay-actor" });
  const button = (id, label, title, target) => h("button", { type: "button", id, title, "aria-label": title, onclick: () => go(target()) }, label);
  const controls = h("section", { class: "card replay-controls", id: "replay-controls" },
    h("div", { class: "replay-info" }, stepLine, actorLine, timeLine, h("a", { href: "/", class: "replay-home" }, "Home")),
    slider,
    h("div", { class: "row" },
      button("replay-first", "⏮", "First step", () => 0),
      button("replay-back", "◀", "Step back", () => index - 1),
      play,
      button("replay-forward", "▶", "Step forward", () => index + 1),
      button("replay-last", "⏭", "Last step", () => last),
      speed),
    record.cut ? h("p", { class: "muted small" }, `Only the first ${last} of ${record.stepCount} steps are shown.`) : null);
  const stage = h("div", { id: "replay-stage" });
  root.append(controls, stage);

  const shown = game.show(stage, context, { kind: game.kind, code, replay: { attach: (show) => (draw = show) } }, game);

  function go(target) {
    index = Math.max(0, Math.min(last, target));
    if (index === last) pause();
    const frame = frames[index];
    slider.value = String(index);
    fill(stepLine, index === 0 ? `Start · ${last} steps` : `Step ${index} of ${last}`);
    fill(timeLine, new Date(frame.at).toLocaleTimeString());
    fill(actorLine, index === 0 ? "" : actorName(frame));
    document.body.dataset.replayStep = String(index);
    draw?.(frame);
  }

  /** Who acted: a player's name as the step's view names them, or the game's clock. */
  function actorName(frame) {
    if (!frame.actor) return "the clock";
    if (frame.actor === context.connection.userId) return "you";
    // As the step's view names them, else the end's (a player who left by then).
    for (const view of [frame.view, frames[last].view]) {
      const named = game.record.names(view).find(([id]) => id === frame.actor);
      if (named) return named[1];
    }
    return "a player who left";
  }

  function start() {
    if (index === last) go(0);
    playing = true;
    fill(play, "Pause");
    schedule();
  }

  function pause() {
    playing = false;
    clearTimeout(timer);
    fill(play, "Play");
  }

  function schedule() {
    clearTimeout(timer);
    if (!playing || index === last) return;
    const gap = Date.parse(frames[index + 1].at) - Date.parse(frames[index].at);
    const wait = Math.max(shortestGap, Math.min(longestGap, Math.max(gap, 0)) / Number(speed.value));
    timer = setTimeout(() => {
      go(index + 1);
      schedule();
    }, wait);
  }
  speed.addEventListener("change", schedule);

  function key(event) {
    if (event.target instanceof HTMLInputElement && event.target !== slider) return;
    const moves = { ArrowLeft: index - 1, ArrowRight: index + 1, Home: 0, End: last };
    if (event.key in moves) {
      event.preventDefault();
      pause();
      go(moves[event.key]);
    } else if (event.key === " " && !(event.target instanceof HTMLButtonElement)) {
      event.preventDefault();
      playing ? pause() : start();
    }
  }
  document.addEventListener("keydown", key);

  pause();
  go(0);
  return {
    dispose() {
      pause();
      document.removeEventListener("keydown", key);
      delete document.body.dataset.replayStep;
      shown.dispose?.();
    },
  };
}
