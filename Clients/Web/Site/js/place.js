// Where this phone is: the game it sits at (or watches) and the name it plays under, kept in
// localStorage so a reload, or the browser coming back after the phone slept, returns to the same seat.

const placeKey = "parlor.place";
const nameKey = "parlor.name";

/** `{kind: "room" | "lobby" | "match" | "quiz", code, lobbyId?, watching?}` or null. */
export function currentPlace() {
  try {
    const place = JSON.parse(localStorage.getItem(placeKey) ?? "null");
    return place && typeof place.kind === "string" && typeof place.code === "string" ? place : null;
  } catch {
    return null;
  }
}

export function savePlace(place) {
  if (place) localStorage.setItem(placeKey, JSON.stringify(place));
  else localStorage.removeItem(placeKey);
}

export function savedName() {
  return localStorage.getItem(nameKey) ?? "";
}

export function saveName(name) {
  localStorage.setItem(nameKey, name);
}

/** What a code names, by its shape (docs/PROTOCOL.md): 4 letters a word game, 6 letters and digits a
 * rummy room, 5 characters a darts match — or, when they are all letters, maybe a photo quiz, which
 * only the server can tell. */
export function kindOfCode(code) {
  const trimmed = code.trim().toUpperCase();
  if (/^[A-Z]{4}$/.test(trimmed)) return "lobby";
  if (/^[A-Z0-9]{6}$/.test(trimmed)) return "room";
  if (/^[A-Z0-9]{5}$/.test(trimmed)) return "match";
  return null;
}

/** The link that opens this app at a game's code. */
export function joinLink(code) {
  return `${location.origin}/?code=${encodeURIComponent(code)}`;
}
