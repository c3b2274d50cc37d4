// A guess by name: the browser has no places file, so it asks the server (GET /places?q=…), which
// suggests places whose name starts with what has been typed, as it is typed; choosing one makes it the
// guess. A server without places data says so (PLACES_UNAVAILABLE) and the map is the way to guess.

import { h, fill } from "../../dom.js";
import { describe } from "../../errors.js";

/** How long typing pauses before the server is asked, in milliseconds. */
const pause = 200;
const limit = 8;

/** "48.86° N, 2.35° E". */
export function positionText({ latitude, longitude }) {
  const lat = `${Math.abs(latitude).toFixed(2)}° ${latitude < 0 ? "S" : "N"}`;
  const lon = `${Math.abs(longitude).toFixed(2)}° ${longitude < 0 ? "W" : "E"}`;
  return `${lat}, ${lon}`;
}

/** The name field and its suggestions: `onChoose({latitude, longitude, label})`. */
export function placeSuggestions(onChoose) {
  const input = h("input", {
    id: "place-name", type: "search", maxlength: 64, placeholder: "A city or town", autocomplete: "off",
    autocapitalize: "words", spellcheck: "false", "aria-label": "Place name",
  });
  const list = h("ul", { class: "suggestions", id: "place-suggestions", role: "listbox" });
  let timer = null;
  let asked = 0;

  function clear() {
    clearTimeout(timer);
    asked += 1;
    input.value = "";
    fill(list);
  }

  async function ask(query) {
    const ticket = ++asked;
    let places;
    try {
      const response = await fetch(`/places?q=${encodeURIComponent(query)}&limit=${limit}`);
      const body = await response.json().catch(() => null);
      if (ticket !== asked) return;
      if (!response.ok) {
        fill(list, h("li", { class: "muted small", dataset: { code: body?.error?.code ?? "" } },
          body?.error?.code === "PLACES_UNAVAILABLE" ? "This server has no list of places: tap the map instead." : describe(body?.error)));
        return;
      }
      places = body.places;
    } catch {
      if (ticket === asked) fill(list, h("li", { class: "muted small" }, describe({ code: "OFFLINE" })));
      return;
    }
    if (places.length === 0) {
      fill(list, h("li", { class: "muted small" }, `No place starts with “${query}”.`));
      return;
    }
    fill(list, places.map((place) => {
      const label = place.country ? `${place.name}, ${place.country}` : place.label;
      const button = h("button", { type: "button", class: "suggestion", role: "option" },
        h("span", { class: "name" }, place.name),
        h("span", { class: "muted small" }, [place.admin1 && place.admin1 !== place.name ? place.admin1 : null, place.country ?? place.countryCode].filter(Boolean).join(", ")));
      button.addEventListener("click", () => {
        fill(list);
        input.value = place.name;
        onChoose({ latitude: place.latitude, longitude: place.longitude, label });
      });
      return h("li", {}, button);
    }));
  }

  input.addEventListener("input", () => {
    clearTimeout(timer);
    const query = input.value.trim();
    if (!query) {
      asked += 1;
      fill(list);
      return;
    }
    timer = setTimeout(() => ask(query.slice(0, 64)), pause);
  });
  input.addEventListener("keydown", (event) => {
    // Enter takes the first suggestion, as a search box would.
    if (event.key !== "Enter") return;
    event.preventDefault();
    list.querySelector("button.suggestion")?.click();
  });

  return { element: h("div", { class: "place-search" }, input, list), input, clear };
}
