// Home: the player's name, a code to join or watch (its shape says its game; an invitation's link brings
// its invitation along), a new game of each kind, with the settings its game offers and who may join and
// watch it, the player's finished games with their replays, and the player's own data (download it,
// delete the account).

import { accessChoices } from "./access.js";
import { h } from "./dom.js";
import { games, withGameOfCode } from "./games.js";
import { historyCard } from "./history.js";
import { myDataCard } from "./mydata.js";
import { savedName, saveName } from "./place.js";

export function showHome(root, context, { code = null, invite = null } = {}) {
  const { connection } = context;
  const name = h("input", {
    id: "name", name: "name", autocomplete: "nickname", maxlength: 30, required: true, placeholder: "Your name",
    value: savedName(),
  });
  // Kept as it is typed: watching first and joining later still knows the name.
  name.addEventListener("input", () => saveName(name.value.trim()));
  const codeInput = h("input", {
    id: "code", name: "code", autocomplete: "off", autocapitalize: "characters", spellcheck: "false", maxlength: 8,
    placeholder: "ABCD", value: code ?? "", class: "code",
  });
  const busy = (button, work) => async (event) => {
    event.preventDefault();
    if (button.disabled) return;
    button.disabled = true;
    try {
      await work();
    } catch (error) {
      context.fail(error);
    } finally {
      button.disabled = false;
    }
  };
  const playerName = () => {
    const value = name.value.trim();
    if (!value) {
      name.focus();
      throw Object.assign(new Error("Type your name first."), { code: "" });
    }
    saveName(value);
    return value;
  };
  const enteredCode = () => codeInput.value.trim().toUpperCase();

  const join = h("button", { id: "join", type: "submit", class: "primary" }, "Join");
  const watch = h("button", { id: "watch", type: "button" }, "Watch");
  join.addEventListener("click", busy(join, async () => {
    const player = playerName();
    const value = enteredCode();
    // The invitation opens the game its link named, and no other.
    const access = invite && value === code?.toUpperCase() ? { invite } : {};
    context.go(await withGameOfCode(value, (game) => game.join(connection, value, player, access)));
  }));
  watch.addEventListener("click", busy(watch, async () => {
    const value = enteredCode();
    context.go(await withGameOfCode(value, (game) => game.watch(connection, value)));
  }));

  const starts = games.map((game) => game.start());
  const choices = accessChoices();
  const buttons = starts.map((start, index) => {
    const button = h("button", { id: start.id, type: index === 0 ? "submit" : "button", class: "primary" }, start.label);
    button.addEventListener("click", busy(button, async () => context.go(await start.create(connection, playerName(), choices.args()))));
    return button;
  });

  root.append(
    h("section", { class: "card" },
      h("h1", {}, "Parlor"),
      h("label", { for: "name" }, "Your name"), name),
    h("form", { class: "card", id: "join-form", onsubmit: (event) => event.preventDefault() },
      h("h2", {}, "Join a game"),
      invite && code ? h("p", { id: "invited" }, `You are invited to ${code.toUpperCase()}: type your name and join.`) : null,
      h("label", { for: "code" }, "Code"), codeInput,
      h("div", { class: "row" }, join, watch)),
    h("section", { class: "card" },
      h("h2", {}, "Start a game"),
      starts.map((start) => start.settings ?? null),
      choices.element,
      h("div", { class: "stack" }, buttons)),
    historyCard(context),
    myDataCard(context),
  );
  (name.value ? codeInput : name).focus({ preventScroll: true });
  return { dispose() {} };
}
