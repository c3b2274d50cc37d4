// The dot before a player's name from the stream's `presence` event: connected, away, or not yet known.

import { h } from "./dom.js";

export function presenceDot(userId, presence) {
  const online = presence.get(userId);
  const state = online === undefined ? "unknown" : online ? "online" : "away";
  return h("span", { class: `dot ${state}`, title: state, "aria-label": state });
}
