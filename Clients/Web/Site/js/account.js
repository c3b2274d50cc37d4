// Signing in with the account of the app that opened this page. The app hands its player's JWT over
// in the address's fragment (`/#jwt=…`: a fragment is never sent to a server, nor kept in the server's
// logs), which the page takes out of the address at once (history.replaceState) and signs in with
// (`hello {jwt}`). When the server says that sign-in has expired (`tokenExpired`), the page asks the app
// for a fresh token — `{type: "parlor:tokenExpired"}` posted to its opener (or the frame around it) —
// and says "sign in again" until one comes: posted back as `{type: "parlor:jwt", jwt}`, or handed over
// in the fragment again. The fresh token keeps the connection (`refreshAuth`).

/** The JWT the address's fragment hands over (`#jwt=…`), taken out of the address; or null. Whatever
 * else the fragment holds (a game's code) stays. */
export function takeHandedOverToken() {
  const parts = location.hash.replace(/^#/, "").split("&").filter((part) => part !== "");
  const handed = parts.find((part) => part.startsWith("jwt="));
  if (!handed) return null;
  const rest = parts.filter((part) => !part.startsWith("jwt="));
  history.replaceState(history.state, "", location.pathname + location.search + (rest.length ? "#" + rest.join("&") : ""));
  let jwt;
  try {
    jwt = decodeURIComponent(handed.slice(4)).trim();
  } catch {
    return null;
  }
  return jwt === "" ? null : jwt;
}

/** The windows that may hand a token over: the app that opened this page, or the frame it is in. */
function appWindows() {
  return [window.opener, window.parent].filter((other) => other);
}

/** Keeps an account's sign-in alive on `connection`: asks the app on `tokenExpired`, refreshes with
 * what it hands over, and tells the player through `context`. */
export function keepAccountSignIn(connection, context) {
  const refresh = async (jwt) => {
    try {
      await connection.refreshAuth(jwt);
      context.say("You are signed in again.");
    } catch (error) {
      context.fail(error);
    }
  };
  connection.addEventListener("tokenExpired", () => {
    for (const app of appWindows()) {
      try {
        app.postMessage({ type: "parlor:tokenExpired" }, "*");
      } catch {
        // A window that is gone cannot be asked.
      }
    }
    context.say({ code: "TOKEN_EXPIRED", status: "unauthenticated" }, { error: true, sticky: true });
  });
  connection.addEventListener("signInRefused", (event) => context.fail(event.detail));
  window.addEventListener("message", (event) => {
    if (!appWindows().includes(event.source)) return;
    const data = event.data;
    if (data && data.type === "parlor:jwt" && typeof data.jwt === "string" && data.jwt !== "") refresh(data.jwt);
  });
  window.addEventListener("hashchange", () => {
    const jwt = takeHandedOverToken();
    if (jwt) refresh(jwt);
  });
}
