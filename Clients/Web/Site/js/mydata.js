// Your data: "Download my data" (GET /users/me/export, saved as the file the server names) and "Delete
// my account" (DELETE /users/me, after the player types "delete"), as the identity this browser signs in
// with. docs/PROTOCOL.md, "A player's own data".

import { h } from "./dom.js";

const confirmation = "delete";

export function myDataCard(context) {
  const { connection } = context;
  const download = h("button", { id: "download-data", type: "button" }, "Download my data");
  const remove = h("button", { id: "delete-account", type: "button", class: "danger" }, "Delete my account");
  const typed = h("input", {
    id: "delete-confirm", name: "delete-confirm", autocomplete: "off", spellcheck: "false", placeholder: `Type ${confirmation}`,
  });
  const confirmRow = h("div", { class: "row", id: "delete-confirm-row", hidden: true },
    typed, h("button", { id: "delete-account-confirm", type: "button", class: "danger" }, "Delete for good"));
  const confirmButton = confirmRow.querySelector("#delete-account-confirm");

  const request = async (method, path) => {
    const response = await fetch(path, { method, headers: { Authorization: `Bearer ${connection.token}` } });
    if (!response.ok) {
      const answer = await response.json().catch(() => null);
      throw answer?.error ?? { code: "", message: `The server answered ${response.status}.` };
    }
    return response;
  };

  download.addEventListener("click", async () => {
    download.disabled = true;
    try {
      const response = await request("GET", "/users/me/export");
      const name = /filename="([^"]+)"/.exec(response.headers.get("Content-Disposition") ?? "")?.[1] ?? "parlor-export.json";
      const url = URL.createObjectURL(await response.blob());
      const link = h("a", { href: url, download: name, id: "download-link" });
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10000);
      context.say("Your data is downloading.");
    } catch (error) {
      context.fail(error);
    } finally {
      download.disabled = false;
    }
  });
  remove.addEventListener("click", () => {
    confirmRow.hidden = false;
    typed.focus();
  });
  confirmButton.addEventListener("click", async () => {
    if (typed.value.trim().toLowerCase() !== confirmation) {
      context.say(`Type ${confirmation} to delete your account.`, { error: true });
      typed.focus();
      return;
    }
    confirmButton.disabled = true;
    try {
      await request("DELETE", `/users/me?confirm=DELETE`);
      connection.forgetIdentity();
      context.say("Your account was deleted.", { sticky: true });
      document.body.dataset.accountDeleted = "true";
      confirmRow.hidden = true;
    } catch (error) {
      context.fail(error);
    } finally {
      confirmButton.disabled = false;
    }
  });

  return h("section", { class: "card", id: "my-data" },
    h("h2", {}, "Your data"),
    h("p", {}, "Take everything Parlor keeps about you, or delete your account: your games stay in the other players' history as \"deleted player\"."),
    h("div", { class: "row" }, download, remove),
    confirmRow);
}
