// The shell around a game's page, the same for every game: the header (what is played, the code, Share,
// Leave or Close), the share panel, the game's stream (views kept in version order, who is connected),
// the rematch a view names (everyone following goes on to it), leaving, and errors said by their code.
// A game supplies only what is its own: how its page draws a view, and its operations.

import { h, fill } from "./dom.js";
import { followGame } from "./follow.js";
import { sharePanel } from "./share.js";

/**
 * Shows `place` of `game` in `root`. `page` is the game's part:
 * - `codeId`, `bodyId`: the ids of the code's heading and of the page's body;
 * - `eyebrow(view, watching)`: what the header says is played ("Darts · 501");
 * - `observe`: `{op, args, viewEvent, closed}` for `followGame`;
 * - `viewOf(result)`: the view in an operation's reply, if it carries one;
 * - `isMember(view, userId)`: whether this phone plays in it;
 * - `rematchOf(view)`: the code of the game that follows a finished one, if any;
 * - `leave(view)`: `{confirm, op, args}` when leaving a game this phone plays in asks the server, else
 *   null (a finished game just closes);
 * - `draw(ui)`: the body's parts for the current view (`ui.view` is never null there);
 * - `loading`: the body while no view has come yet (optional);
 * - `onView(next, previous)`: a look at each newer view before it is drawn (optional);
 * - `keepFocus(element)`: whether a focused field survives a redraw (optional).
 * Returns `{ui, dispose}`; `ui` has `view`, `presence`, `watching`, `act(op, args, button)` and `render()`.
 */
export function gamePage(root, context, place, game, page) {
  const { connection } = context;
  const code = place.code;
  let sharing = false;
  let disposed = false;
  let followed = false;

  const header = h("header", { class: "game-header" });
  const body = h("div", { id: page.bodyId, class: "stack" });
  root.append(header, body);

  const ui = {
    view: null,
    presence: new Map(),
    code,
    get watching() {
      return !ui.view || !page.isMember(ui.view, connection.userId);
    },
    /** Asks the server; a view in the reply is shown at once. Answers whether it went through. */
    async act(op, args, button) {
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
    page.onView?.(next, ui.view);
    ui.view = next;
    const rematch = page.rematchOf(next);
    if (rematch && !disposed && !followed) {
      // The players are seated in the rematch already; spectators watch it.
      followed = true;
      context.go({ kind: place.kind, code: rematch, watching: ui.watching });
      context.say(`On to the rematch: ${game.noun} ${rematch}.`);
      return;
    }
    render();
  }

  function render() {
    if (disposed) return;
    const focused = document.activeElement;
    const keep = focused && page.keepFocus?.(focused) ? focused : null;
    draw();
    if (keep && keep.isConnected) keep.focus({ preventScroll: true });
  }

  function draw() {
    const watching = ui.watching;
    const actions = [
      h("button", { type: "button", id: "share", "aria-expanded": String(sharing), onclick: () => {
        sharing = !sharing;
        render();
      } }, sharing ? "Hide" : "Share"),
      h("button", { type: "button", id: "leave", onclick: leave }, watching ? "Close" : "Leave"),
    ];
    fill(header,
      h("div", {},
        h("div", { class: "eyebrow" }, page.eyebrow(ui.view, watching)),
        h("h1", { class: "code", id: page.codeId }, code)),
      h("div", { class: "row" }, actions));
    if (!ui.view) {
      fill(body, page.loading ?? h("p", { class: "muted" }, "Loading…"));
      return;
    }
    // The panel goes first, above the game, until it is hidden again.
    fill(body, sharing ? sharePanel(code, context) : null, ...page.draw(ui));
  }

  async function leave() {
    const asked = ui.watching ? null : page.leave(ui.view);
    if (asked) {
      if (!confirm(asked.confirm)) return;
      try {
        await connection.request(asked.op, asked.args);
      } catch (error) {
        // Gone already (or no longer seated): leaving is done.
        if (error.status !== "not-found") {
          context.fail(error);
          return;
        }
      }
    }
    context.go(null);
  }

  render();
  const stream = followGame(context, {
    ...page.observe,
    view: update,
    presence(online) {
      ui.presence = online;
      render();
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
