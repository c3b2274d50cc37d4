// Bringing friends in: the game's join link as a QR code to scan from across the table, the link
// itself, and the phone's share sheet (or the clipboard). A private game's host passes on an
// invitation's link the same way (js/access.js), under ids of its own.

import { h } from "./dom.js";
import { joinLink } from "./place.js";
import { qrSvg } from "./qr.js";

/** A card with the QR code and the link for `code` (or `url`), and buttons to pass the link on; its
 * elements' ids start with `prefix` ("share-panel", or "invite-share-panel" with `prefix: "invite-"`). */
export function sharePanel(code, context, { url = joinLink(code), prefix = "", note = null } = {}) {
  const copy = h("button", { type: "button", id: `${prefix}copy-link` }, "Copy link");
  copy.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(url);
      context.say("Link copied.");
    } catch {
      context.say(url);
    }
  });
  const actions = [copy];
  if (navigator.share) {
    const native = h("button", { type: "button", id: `${prefix}share-sheet`, class: "primary" }, "Share…");
    native.addEventListener("click", () => navigator.share({ title: `Parlor ${code}`, url }).catch(() => {}));
    actions.push(native);
  }
  return h("section", { class: "card share", id: `${prefix}share-panel` },
    note ? h("p", { class: "muted" }, note) : null,
    h("div", { class: "qr", id: `${prefix}qr` }, qrSvg(url)),
    h("p", { class: "link", id: `${prefix}join-link` }, url),
    h("div", { class: "row" }, actions));
}
