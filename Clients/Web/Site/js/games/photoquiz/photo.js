// The quiz's photo on a canvas: a 6 × 6 grid filled in as the server reveals tiles — each tile's
// preview (a few RGB pixels carried by the view) at once, then its JPEG from the server when it has
// loaded — and the whole photo once it has been revealed. Nothing is asked for before it has appeared:
// the server would refuse it anyway (TILE_HIDDEN, PHOTO_HIDDEN).

import { h } from "../../dom.js";

const grid = 6;
/** The canvas's own width in pixels; its height follows the photo's shape. */
const width = 720;

export class PhotoCanvas {
  constructor() {
    this.canvas = h("canvas", { id: "quiz-photo", class: "quiz-photo", width, height: width * 0.75, role: "img", "aria-label": "The photo" });
    this.context = this.canvas.getContext("2d");
    this.photoId = null;
    this.tiles = new Map();
    this.whole = null;
    this.aspect = null;
  }

  /** Shows `photo` (the view's `currentPhoto`) of quiz `code`; `revealed` loads the whole photo. */
  show(code, photo, revealed) {
    if (!photo) return;
    if (photo.photoId !== this.photoId) {
      this.photoId = photo.photoId;
      this.tiles = new Map();
      this.whole = null;
      this.aspect = null;
      if (photo.previewWidth && photo.previewHeight) this.resize(photo.previewHeight / photo.previewWidth);
    }
    const base = `/quizzes/${encodeURIComponent(code)}/photos/${encodeURIComponent(photo.photoId)}`;
    for (const tile of photo.revealedTiles ?? []) {
      if (this.tiles.has(tile)) continue;
      const entry = { preview: preview(photo.previews?.[String(tile)], photo.previewWidth, photo.previewHeight), image: null };
      this.tiles.set(tile, entry);
      const image = new Image();
      image.addEventListener("load", () => {
        if (this.photoId !== photo.photoId) return;
        // A real tile tells the photo's shape better than a six-pixel preview does.
        if (!this.aspect) {
          this.aspect = image.naturalHeight / image.naturalWidth;
          this.resize(this.aspect);
        }
        entry.image = image;
        this.draw();
      });
      image.src = `${base}/tiles/${tile}`;
    }
    if (revealed && !this.whole) {
      const image = new Image();
      this.whole = { image: null };
      image.addEventListener("load", () => {
        if (this.photoId !== photo.photoId) return;
        this.whole.image = image;
        this.resize(image.naturalHeight / image.naturalWidth);
        this.draw();
      });
      image.src = base;
    }
    this.draw();
  }

  /** Tiles drawn from their JPEGs so far. */
  get drawnTiles() {
    return [...this.tiles.values()].filter((entry) => entry.image).length;
  }

  /** Six tiles across and six down: the photo has its tiles' shape (height over width). */
  resize(aspect) {
    if (!Number.isFinite(aspect) || aspect <= 0) return;
    const height = Math.round(width * Math.min(2, aspect));
    if (this.canvas.height !== height) this.canvas.height = height;
  }

  draw() {
    const { context, canvas } = this;
    context.fillStyle = getComputedStyle(canvas).getPropertyValue("--tile-hidden").trim() || "#888";
    context.fillRect(0, 0, canvas.width, canvas.height);
    // What is on the canvas, for the browser tests: tiles drawn from their JPEGs, or the whole photo.
    canvas.dataset.tiles = String(this.drawnTiles);
    canvas.dataset.whole = String(Boolean(this.whole?.image));
    if (this.whole?.image) {
      context.drawImage(this.whole.image, 0, 0, canvas.width, canvas.height);
      return;
    }
    const tileWidth = canvas.width / grid;
    const tileHeight = canvas.height / grid;
    for (const [tile, entry] of this.tiles) {
      const x = (tile % grid) * tileWidth;
      const y = Math.floor(tile / grid) * tileHeight;
      const source = entry.image ?? entry.preview;
      if (!source) continue;
      context.imageSmoothingEnabled = true;
      // Overlap by a pixel so no seam of the hidden colour shows between neighbours.
      context.drawImage(source, x, y, tileWidth + 1, tileHeight + 1);
    }
  }
}

/** A tile's preview (base64 RGB, `columns × rows` pixels) as a small canvas to scale up; null when
 * there is none. */
function preview(base64, columns, rows) {
  if (!base64 || !columns || !rows) return null;
  let bytes;
  try {
    bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
  if (bytes.length < columns * rows * 3) return null;
  const small = document.createElement("canvas");
  small.width = columns;
  small.height = rows;
  const context = small.getContext("2d");
  const pixels = context.createImageData(columns, rows);
  for (let i = 0; i < columns * rows; i++) {
    pixels.data[i * 4] = bytes[i * 3];
    pixels.data[i * 4 + 1] = bytes[i * 3 + 1];
    pixels.data[i * 4 + 2] = bytes[i * 3 + 2];
    pixels.data[i * 4 + 3] = 255;
  }
  context.putImageData(pixels, 0, 0);
  return small;
}
