// Where this phone is: the game it sits at (or watches) and the name it plays under, kept in
// localStorage so a reload, or the browser coming back after the phone slept, returns to the same seat;
// and the address, which carries the game's code (`/#K7Q2ZD`) so a reload or a shared address lands in
// the game too.

const placeKey = "parlor.place";
const nameKey = "parlor.name";

/** `{kind, code, watching?, …}` (a game's kind and whatever its page needs) or null. */
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

/** The link that opens this app at a game's code. */
export function joinLink(code) {
  return `${location.origin}/?code=${encodeURIComponent(code)}`;
}

/** The game's code the address carries (`/#K7Q2ZD`), or null. */
export function addressedCode() {
  const code = decodeURIComponent(location.hash.slice(1)).trim().toUpperCase();
  return /^[A-Z0-9]{1,12}$/.test(code) ? code : null;
}

/** Puts the game's code in the address (or takes it out, at home) without a new history entry. */
export function showInAddress(code) {
  history.replaceState(null, "", code ? `/#${encodeURIComponent(code)}` : "/");
}
