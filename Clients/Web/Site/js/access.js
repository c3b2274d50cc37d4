// Who may join and watch a game, the same for every game (docs/PROTOCOL.md, "Who may join and watch a
// game"): the choices a new game is created with (private, who may watch), what the page says of a
// game's settings as its stream tells them (`access` events), and its host's controls — an invitation
// to pass on (its link shown, copied, shared as a QR code), locking and unlocking, and handing the host
// role to another player. Nothing here names a game: the shell hands over the page's host and seats.

import { h, fill } from "./dom.js";
import { sharePanel } from "./share.js";

const spectatorChoices = [
  ["allowed", "Anyone may watch"],
  ["signedIn", "Only signed-in accounts may watch"],
  ["none", "Nobody else may watch"],
];

/** The settings a new game is created with, for home's "Start a game": `element` to show, `args()` the
 * access arguments any create operation takes beside its own (none when left as they are). */
export function accessChoices() {
  const isPrivate = h("input", { id: "create-private", type: "checkbox" });
  const spectators = h("select", { id: "create-spectators" }, spectatorChoices.map(([value, label]) => h("option", { value }, label)));
  return {
    element: h("details", { id: "access-choices" },
      h("summary", {}, "Who may join and watch"),
      h("div", { class: "fields" },
        h("label", { class: "check" }, isPrivate, " Private: only players I invite may join"),
        h("label", {}, "Spectators", spectators))),
    args() {
      const args = {};
      if (isPrivate.checked) args.private = true;
      if (spectators.value !== "allowed") args.spectators = spectators.value;
      return args;
    },
  };
}

/** "Private · Locked · Nobody else may watch", or "" for a game open to all. */
export function accessSentence(access) {
  const parts = [];
  if (access.private) parts.push("Private");
  if (access.locked) parts.push("Locked");
  if (access.spectators !== "allowed") parts.push(spectatorChoices.find(([value]) => value === access.spectators)?.[1] ?? "");
  return parts.filter(Boolean).join(" · ");
}

/**
 * A game page's access: `badge`, what everyone sees of the settings (empty while the game is open to
 * all), and `parts(view)`, the host's controls for the current view (none for anyone else).
 * `host(view)` and `seats(view)` (`[{id, name}]`) are the page's; `handover` is false for a game whose
 * host cannot be handed over. `changed()` redraws the page.
 */
export function accessControls(context, { code, noun, host, seats, handover = true, changed }) {
  const { connection } = context;
  // Until the stream says otherwise: a game that never was private, locked or closed says nothing.
  let access = { private: false, locked: false, spectators: "allowed" };
  let seatsKey = null;

  const badge = h("span", { class: "access-state", id: "access-state", hidden: true });
  const inviteButton = h("button", { type: "button", id: "invite", class: "primary" }, "Invite");
  const lockButton = h("button", { type: "button", id: "lock" });
  const handOverTo = h("select", { id: "hand-over-to", "aria-label": "Player to hand over to" });
  const handOverButton = h("button", { type: "button", id: "hand-over" }, "Hand over");
  const invitePlace = h("div", { id: "invitation" });
  const panel = h("section", { class: "card", id: "host-panel" },
    h("h2", {}, "Host"),
    h("div", { class: "row" }, inviteButton, lockButton),
    invitePlace,
    handover ? h("details", { id: "hand-over-details" },
      h("summary", {}, "Hand the host role over"),
      h("div", { class: "row" }, handOverTo, handOverButton)) : null);

  async function ask(op, args, button) {
    button.disabled = true;
    try {
      return await connection.request(op, args);
    } catch (error) {
      context.fail(error);
      return null;
    } finally {
      button.disabled = false;
    }
  }

  inviteButton.addEventListener("click", async () => {
    const result = await ask("createInvite", { code }, inviteButton);
    if (!result) return;
    const until = new Date(result.expiresAt).toLocaleString([], { dateStyle: "medium", timeStyle: "short" });
    fill(invitePlace, sharePanel(code, context, {
      url: `${location.origin}${result.link}`, prefix: "invite-",
      note: `Whoever opens this link may join ${noun} ${code} until ${until}.`,
    }));
  });
  lockButton.addEventListener("click", async () => {
    const result = await ask(access.locked ? "unlockGame" : "lockGame", { code }, lockButton);
    if (!result) return;
    show(result);
    context.say(result.locked ? `${code} is locked: nobody else can join.` : `${code} is open again.`);
  });
  handOverButton.addEventListener("click", async () => {
    const to = handOverTo.value;
    const name = handOverTo.selectedOptions[0]?.textContent ?? "";
    if (!to || !confirm(`Make ${name} the host of this ${noun}?`)) return;
    const result = await ask("transferHost", { code, to }, handOverButton);
    if (!result) return;
    show(result);
    context.say(`${name} is the host now.`);
  });

  /** New settings, from the stream or a reply. */
  function show(next) {
    access = { ...access, ...next };
    changed();
  }

  return {
    badge,
    show,
    get access() {
      return access;
    },
    parts(view) {
      const sentence = accessSentence(access);
      if (badge.textContent !== sentence) fill(badge, sentence);
      badge.hidden = !sentence;
      if (!view || host(view) !== connection.userId) {
        invitePlace.replaceChildren();
        return [];
      }
      const lockLabel = access.locked ? "Unlock" : "Lock";
      if (lockButton.textContent !== lockLabel) fill(lockButton, lockLabel);
      lockButton.setAttribute("aria-pressed", String(access.locked));
      if (handover) {
        const others = seats(view).filter((seat) => seat.id !== connection.userId);
        const key = JSON.stringify(others);
        if (key !== seatsKey) {
          seatsKey = key;
          fill(handOverTo, others.map((seat) => h("option", { value: seat.id }, seat.name)));
        }
        handOverTo.disabled = handOverButton.disabled = others.length === 0;
      }
      return [panel];
    },
  };
}
