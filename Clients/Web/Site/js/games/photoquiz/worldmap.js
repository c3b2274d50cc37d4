// A world map with no tiles and no network beyond this server: the cells where the server's places lie
// (GET /places/map, fetched once and revalidated by its ETag) drawn as dots on an equirectangular
// canvas, which is enough to make out the continents. A tap is a position (the guess, shown as a pin);
// the reveal marks the answer and everyone's guesses. A server without places data still gives a map:
// a grid of meridians and parallels to tap on.

import { h } from "../../dom.js";

const width = 720;
const height = 360;

let cellsRequest = null;

/** The map's cells, asked for once per page: `{cellDegrees, columns, rows, cells: Uint8Array}`, or null
 * when the server has none (or could not be reached: the next map asks again). */
export function mapCells() {
  cellsRequest ??= fetch("/places/map").then(async (response) => {
    if (!response.ok) return null;
    const body = await response.json();
    const cells = Uint8Array.from(atob(body.cells), (c) => c.charCodeAt(0));
    return { ...body, cells };
  }).catch(() => {
    cellsRequest = null;
    return null;
  });
  return cellsRequest;
}

/** Where on the canvas a position is, and back. */
export function toPoint(latitude, longitude) {
  return { x: ((longitude + 180) / 360) * width, y: ((90 - latitude) / 180) * height };
}

export function toPosition(x, y) {
  const latitude = Math.max(-90, Math.min(90, 90 - (y / height) * 180));
  const longitude = Math.max(-180, Math.min(180, (x / width) * 360 - 180));
  return { latitude: Math.round(latitude * 10000) / 10000, longitude: Math.round(longitude * 10000) / 10000 };
}

export class WorldMap {
  /** `onTap(position)` when the map may be tapped; without it the map only shows. */
  constructor({ id, onTap = null } = {}) {
    this.canvas = h("canvas", { id, class: onTap ? "world-map tappable" : "world-map", width, height, role: "img", "aria-label": "World map" });
    this.context = this.canvas.getContext("2d");
    this.data = undefined;
    this.pin = null;
    this.marks = [];
    if (onTap) {
      this.canvas.addEventListener("click", (event) => {
        const box = this.canvas.getBoundingClientRect();
        const x = ((event.clientX - box.left) / box.width) * width;
        const y = ((event.clientY - box.top) / box.height) * height;
        onTap(toPosition(x, y));
      });
    }
    mapCells().then((data) => {
      this.data = data;
      this.canvas.dataset.cells = data ? "places" : "grid";
      this.draw();
    });
    this.draw();
  }

  /** The pending guess: a pin (or null). */
  setPin(position) {
    this.pin = position;
    this.draw();
  }

  /** The reveal: `[{latitude, longitude, kind: "answer" | "guess" | "mine", label}]`. */
  setMarks(marks) {
    this.marks = marks;
    this.draw();
  }

  draw() {
    const { context } = this;
    const style = getComputedStyle(this.canvas);
    const color = (name, fallback) => style.getPropertyValue(name).trim() || fallback;
    context.fillStyle = color("--map-sea", "#cfe3ea");
    context.fillRect(0, 0, width, height);
    context.strokeStyle = color("--map-grid", "rgba(0,0,0,0.12)");
    context.lineWidth = 1;
    for (let longitude = -150; longitude < 180; longitude += 30) {
      const { x } = toPoint(0, longitude);
      context.beginPath();
      context.moveTo(x, 0);
      context.lineTo(x, height);
      context.stroke();
    }
    for (let latitude = -60; latitude <= 60; latitude += 30) {
      const { y } = toPoint(latitude, 0);
      context.beginPath();
      context.moveTo(0, y);
      context.lineTo(width, y);
      context.stroke();
    }
    if (this.data) {
      const { columns, rows, cells } = this.data;
      const cellWidth = width / columns;
      const cellHeight = height / rows;
      context.fillStyle = color("--map-land", "#6f8f5f");
      for (let row = 0; row < rows; row++) {
        for (let column = 0; column < columns; column++) {
          const index = row * columns + column;
          if (cells[index >> 3] & (0x80 >> (index & 7))) {
            context.fillRect(column * cellWidth, row * cellHeight, cellWidth + 0.5, cellHeight + 0.5);
          }
        }
      }
    }
    const answer = this.marks.find((mark) => mark.kind === "answer");
    for (const mark of this.marks) {
      if (mark.kind === "answer" || !answer) continue;
      const from = toPoint(mark.latitude, mark.longitude);
      const to = toPoint(answer.latitude, answer.longitude);
      context.strokeStyle = color("--map-line", "rgba(0,0,0,0.45)");
      context.setLineDash([6, 5]);
      context.beginPath();
      context.moveTo(from.x, from.y);
      context.lineTo(to.x, to.y);
      context.stroke();
      context.setLineDash([]);
    }
    for (const mark of this.marks) {
      if (mark.kind !== "answer") this.dot(mark, mark.kind === "mine" ? color("--bad", "#c62828") : color("--warn", "#b26a00"));
    }
    // The answer last, as a pin, so a guess right on it does not hide it.
    if (answer) this.dot({ ...answer, label: "" }, color("--good", "#2e7d32"), true);
    if (this.pin) this.dot({ ...this.pin, label: "" }, color("--bad", "#c62828"), true);
  }

  dot({ latitude, longitude, label }, fill, pin = false) {
    const { context } = this;
    const { x, y } = toPoint(latitude, longitude);
    context.fillStyle = fill;
    context.strokeStyle = "#ffffff";
    context.lineWidth = 3;
    context.beginPath();
    if (pin) {
      // A pin: its point on the position, its head above it.
      context.moveTo(x, y);
      context.arc(x, y - 22, 11, Math.PI * 0.8, Math.PI * 2.2);
      context.closePath();
    } else {
      context.arc(x, y, 9, 0, Math.PI * 2);
    }
    context.stroke();
    context.fill();
    if (label) {
      context.font = "bold 22px system-ui, sans-serif";
      context.lineWidth = 4;
      context.strokeText(label, x + 12, y - 10);
      context.fillStyle = "#1d1d1b";
      context.fillText(label, x + 12, y - 10);
    }
  }
}
