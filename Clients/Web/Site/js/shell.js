// The shell around a game's page, the same for every game: the header (what is played, the code, Share,
// Leave or Close), the share panel, the game's stream (views kept in version order, who is connected,
// the server's clock where views carry it), the rematch a view names (everyone following goes on to
// it), the host removing a player (and the removed phone told so), who may join and watch (js/access.js:
// the settings the stream tells, the host's invitation, lock and handover), leaving, and errors said by
// their code. A game supplies only what is its own: how its page draws a view, and its operations.
//
// What the shell builds it builds once and updates in place (a game whose views come several times a
// second keeps its buttons under a finger), and the body is filled again only when the parts it shows
// are other nodes than before.

import { accessControls } from "./access.js";
import { h, fill } from "./dom.js";
import { followGame } from "./follow.js";
import { sharePanel } from "./share.js";

/**
 * Shows `place` of `game` in `root`. `page` is the game's part:
 * - `codeId`, `bodyId`: the ids of the code's heading and of the page's body;
 * - `eyebrow(view, watching)`: what the header says is played ("Darts · 501"); `view` may be null;
 * - `observe`: `{op, args, viewEvent, closed, other}` for `followGame` (`other` gets the game's own
 *   events, such as a private view);
 * - `viewOf(result)`: the view in an operation's reply, if it carries one;
 * - `isMember(view, userId)`: whether this phone plays in it;
 * - `rematchOf(view)`: the code of the game that follows a finished one, if any;
 * - `rematchPlace(code, watching)` (optional): the place to go on to for that rematch, or a promise of
 *   it, when going there takes more than its code (a seat to take); `{kind, code, watching}` otherwise;
 * - `kick` (optional, for a game whose host removes players): `{host(view), seats(view), allowed(view),
 *   op, args(playerId)}` — the host's id, the seats `[{id, name}]`, whether the game allows a removal
 *   now, and the operation that removes one; its `host` and `seats` are also the host's for inviting,
 *   locking and handing over (js/access.js);
 * - `handover` (optional): false for a game whose host cannot be handed over;
 * - `leave(view)`: `{confirm, op, args, gone}` when leaving a game this phone plays in asks the server,
 *   else null (the button then says Close and just closes); a refusal whose status is `not-found`, or
 *   whose code is in `gone`, means the seat is gone already;
 * - `draw(ui)`: the body's parts for the current view (`ui.view` is never null there); the same nodes
 *   as last time leave the body as it is;
 * - `drawn(ui)` (optional): a look at the parts once they are on the page;
 * - `loading`: the body while no view has come yet (optional);
 * - `onView(next, previous)`: a look at each newer view before it is drawn (optional);
 * - `keepFocus(element)`: whether a focused field survives a redraw (optional);
 * - `privateView(data)`: this phone's own private view, when the game has one (optional; a replay
 *   hands over the one recorded with each step, a game's own stream event calls it live).
 * A phone whose stream the server ends while it is seated was removed from a game whose members' stream
 * is theirs: it is told so and goes on watching.
 *
 * A replay (`place.replay`, from replay.js) shows a finished game's recorded steps through the same page:
 * `place.replay.attach(show)` is called once, and `show({view, privateView, at})` with each step to draw,
 * in any order. Nothing is followed and nothing is asked of the server; the body is drawn as this phone
 * saw it then, inert (its controls do nothing), with no Share, Leave or removal.
 * Returns `{ui, dispose}`; `ui` has `view`, `presence`, `watching`, `replaying`, `now()` (the server's
 * clock, or the step's time in a replay), `act(op, args, button)` and `render()`.
 */
export function gamePage(root, context, place, game, page) {
  const { connection } = context;
  const code = place.code;
  const replay = place.replay ?? null;
  /** The time of the step a replay shows, in milliseconds. */
  let replayTime = 0;
  let sharing = false;
  let shared = null;
  let removing = false;
  let leaving = false;
  let disposed = false;
  let followed = false;
  // Whether the next view's serverTime is the server's clock now: not the first view after (re)subscribing
  // when the reply told the time itself, since that view may be old.
  let fresh = true;

  const eyebrow = h("div", { class: "eyebrow" });
  const shareButton = h("button", { type: "button", id: "share", onclick: () => {
    sharing = !sharing;
    render();
  } });
  const leaveButton = h("button", { type: "button", id: "leave", onclick: leave });
  const access = accessControls(context, {
    code, noun: game.noun, host: (view) => page.kick?.host(view) ?? null, seats: (view) => page.kick?.seats(view) ?? [],
    handover: page.handover !== false, changed: () => render(),
  });
  const header = h("header", { class: "game-header" },
    h("div", {}, eyebrow, h("h1", { class: "code", id: page.codeId }, code), access.badge),
    h("div", { class: "row" }, shareButton, leaveButton));
  const body = h("div", { id: page.bodyId, class: "stack", inert: replay !== null });
  shareButton.hidden = leaveButton.hidden = replay !== null;
  // The host's removal goes last, below the game: rarely needed, and never in the way.
  const kickButton = h("button", { type: "button", id: "kick", onclick: () => {
    removing = !removing;
    render();
  } });
  let panel = null;
  root.append(header, body);

  const ui = {
    view: null,
    presence: new Map(),
    code,
    replaying: replay !== null,
    now: () => (replay ? replayTime : connection.serverNow()),
    get watching() {
      return !ui.view || !page.isMember(ui.view, connection.userId);
    },
    /** Asks the server; a view in the reply is shown at once. Answers whether it went through. */
    async act(op, args, button) {
      if (replay) return false;
      if (button) button.disabled = true;
      try {
        const result = await connection.request(op, args);
        const view = page.viewOf(result);
        if (view) update(view);
        return true;
      } catch (error) {
        context.fail(error);
        return false;
      } finally {
        if (button) button.disabled = false;
      }
    },
    render,
  };

  function update(next) {
    if (!next || (ui.view && next.version < ui.view.version)) return;
    if (ui.view && page.isMember(ui.view, connection.userId) && !page.isMember(next, connection.userId) && !leaving) {
      // Not our leave: the host took this phone's seat away. It goes on watching.
      context.say(`You were removed from ${game.noun} ${code}.`);
    }
    page.onView?.(next, ui.view);
    ui.view = next;
    const rematch = page.rematchOf(next);
    if (rematch && !disposed && !followed) {
      // The players are seated in the rematch already; spectators watch it.
      followed = true;
      const watching = ui.watching;
      Promise.resolve(page.rematchPlace?.(rematch, watching) ?? { kind: place.kind, code: rematch, watching }).then((next) => {
        if (disposed) return;
        context.go(next);
        context.say(`On to the rematch: ${game.noun} ${rematch}.`);
      }, (error) => {
        followed = false;
        context.fail(error);
      });
      return;
    }
    render();
  }

  /** The server ended this phone's stream while it played: the host removed it. */
  function removed() {
    if (disposed || leaving || place.watching) return;
    context.go({ kind: place.kind, code, watching: true });
    context.say(`You were removed from ${game.noun} ${code}.`);
  }

  function render() {
    if (disposed) return;
    const focused = document.activeElement;
    const keep = focused && focused !== document.body && page.keepFocus?.(focused) ? focused : null;
    draw();
    if (keep && keep.isConnected && document.activeElement !== keep) keep.focus({ preventScroll: true });
  }

  /** A replay's step, drawn as it was seen. */
  function showStep(step) {
    if (disposed) return;
    replayTime = Date.parse(step.at);
    page.onView?.(step.view, ui.view);
    ui.view = step.view;
    page.privateView?.(step.privateView ?? null);
    render();
  }

  /** Whether this phone is the host of a game that allows a removal now, with someone to remove. */
  function mayKick() {
    const kick = page.kick;
    if (replay || !kick || !ui.view || kick.host(ui.view) !== connection.userId || !kick.allowed(ui.view)) return false;
    return kick.seats(ui.view).some((seat) => seat.id !== connection.userId);
  }

  /** The host's panel: one button per other player, each asking before it removes them; built again
   * only when the seats change. */
  function kickPanel() {
    const others = page.kick.seats(ui.view).filter((seat) => seat.id !== connection.userId);
    const key = JSON.stringify(others);
    if (panel?.key === key) return panel.element;
    const element = h("section", { class: "card", id: "kick-panel" },
      h("h2", {}, "Remove a player"),
      h("ul", { class: "players" }, others.map((seat) => {
        const button = h("button", { type: "button", dataset: { player: seat.id } }, `Remove ${seat.name}`);
        button.addEventListener("click", async () => {
          if (!confirm(`Remove ${seat.name} from this ${game.noun}?`)) return;
          if (await ui.act(page.kick.op, page.kick.args(seat.id), button)) {
            removing = false;
            context.say(`${seat.name} was removed.`);
            render();
          }
        });
        return h("li", {}, button);
      })));
    panel = { key, element };
    return element;
  }

  function draw() {
    const watching = ui.watching;
    const kicking = mayKick();
    if (!kicking) removing = false;
    say(eyebrow, (replay ? "Replay · " : "") + page.eyebrow(ui.view, watching));
    say(shareButton, sharing ? "Hide" : "Share");
    shareButton.setAttribute("aria-expanded", String(sharing));
    say(leaveButton, watching || !page.leave(ui.view) ? "Close" : "Leave");
    if (!ui.view) {
      show(body, [page.loading ?? (page.loading = h("p", { class: "muted" }, "Loading…"))]);
      return;
    }
    // The share panel goes first, above the game, until it is hidden again.
    shared = sharing ? shared ?? sharePanel(code, context) : null;
    if (kicking) {
      say(kickButton, removing ? "Done removing" : "Remove a player…");
      kickButton.setAttribute("aria-expanded", String(removing));
    }
    show(body, [shared, ...page.draw(ui), ...access.parts(ui.view), kicking ? kickButton : null, removing ? kickPanel() : null]);
    page.drawn?.(ui);
  }

  async function leave() {
    const asked = ui.watching ? null : page.leave(ui.view);
    if (asked) {
      if (!confirm(asked.confirm)) return;
      leaving = true;
      try {
        await connection.request(asked.op, asked.args);
      } catch (error) {
        // Gone already (or no longer seated): leaving is done.
        if (error.status !== "not-found" && !asked.gone?.includes(error.code)) {
          leaving = false;
          context.fail(error);
          return;
        }
      }
    }
    context.go(null);
  }

  /** Takes the server's clock from a reply or view that carries it. */
  function clock(serverTime, isFresh) {
    if (serverTime && isFresh) connection.noteServerTime(serverTime);
  }

  render();
  const stream = replay ? (replay.attach(showStep), { stop() {} }) : followGame(context, {
    ...page.observe,
    view(next) {
      if (ui.view && next.version < ui.view.version) return;
      clock(next.serverTime, fresh);
      fresh = true;
      update(next);
    },
    presence(online) {
      ui.presence = online;
      render();
    },
    subscribed(result) {
      if (!result?.serverTime) return;
      clock(result.serverTime, true);
      fresh = false;
    },
    other(event, data) {
      if (event === "subscribed") {
        // Subscribed again after a reconnect: the stream starts over with a view that may be old.
        clock(data?.serverTime, true);
        fresh = false;
      } else if (event === "end") {
        removed();
      } else if (event === "access") {
        // Who may join and watch, as the host last set it (a lock, a new host): every phone's page says so.
        access.show(data);
        return;
      }
      page.observe.other?.(event, data);
    },
  });

  return {
    ui,
    dispose() {
      disposed = true;
      stream.stop();
    },
  };
}

/** Sets an element's text when it changed (the element stays, under a finger too). */
function say(element, text) {
  if (element.textContent !== text) fill(element, text);
}

/** Puts `parts` (nodes, or null for none) in `element`, unless they are there already in that order. */
function show(element, parts) {
  const nodes = parts.flat().filter(Boolean);
  const children = element.childNodes;
  if (nodes.length === children.length && nodes.every((node, index) => children[index] === node)) return;
  fill(element, ...nodes);
}
