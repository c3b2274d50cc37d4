// The shell around a game's page, the same for every game: the header (what is played, the code, Share,
// Leave or Close), the share panel, the game's stream (views kept in version order, who is connected),
// the rematch a view names (everyone following goes on to it), the host removing a player (and the
// removed phone told so), leaving, and errors said by their code.
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
 * - `kick` (optional, for a game whose host removes players): `{host(view), seats(view), allowed(view),
 *   op, args(playerId)}` — the host's id, the seats `[{id, name}]`, whether the game allows a removal
 *   now, and the operation that removes one;
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
  let removing = false;
  let leaving = false;
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

  /** Whether this phone is the host of a game that allows a removal now, with someone to remove. */
  function mayKick() {
    const kick = page.kick;
    if (!kick || !ui.view || kick.host(ui.view) !== connection.userId || !kick.allowed(ui.view)) return false;
    return kick.seats(ui.view).some((seat) => seat.id !== connection.userId);
  }

  /** The host's panel: one button per other player, each asking before it removes them. */
  function kickPanel() {
    const others = page.kick.seats(ui.view).filter((seat) => seat.id !== connection.userId);
    return h("section", { class: "card", id: "kick-panel" },
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
  }

  function draw() {
    const watching = ui.watching;
    const kicking = mayKick();
    if (!kicking) removing = false;
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
    // The host's removal goes last, below the game: rarely needed, and never in the way.
    const kick = kicking
      ? h("button", { type: "button", id: "kick", "aria-expanded": String(removing), onclick: () => {
        removing = !removing;
        render();
      } }, removing ? "Done removing" : "Remove a player…")
      : null;
    fill(body, sharing ? sharePanel(code, context) : null, ...page.draw(ui), kick, removing ? kickPanel() : null);
  }

  async function leave() {
    const asked = ui.watching ? null : page.leave(ui.view);
    if (asked) {
      if (!confirm(asked.confirm)) return;
      leaving = true;
      try {
        await connection.request(asked.op, asked.args);
      } catch (error) {
        leaving = false;
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
