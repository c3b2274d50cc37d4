// Bringing friends in: the game's join link as a QR code to scan from across the table, the link
// itself, and the phone's share sheet (or the clipboard).

import { h } from "./dom.js";
import { joinLink } from "./place.js";
import { qrSvg } from "./qr.js";

/** A card with the QR code and the link for `code`, and buttons to pass the link on. */
export function sharePanel(code, context) {
  const url = joinLink(code);
  const copy = h("button", { type: "button", id: "copy-link" }, "Copy link");
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
    const native = h("button", { type: "button", id: "share-sheet", class: "primary" }, "Share…");
    native.addEventListener("click", () => navigator.share({ title: `Parlor ${code}`, url }).catch(() => {}));
    actions.push(native);
  }
  return h("section", { class: "card share", id: "share-panel" },
    h("div", { class: "qr", id: "qr" }, qrSvg(url)),
    h("p", { class: "link", id: "join-link" }, url),
    h("div", { class: "row" }, actions));
}
