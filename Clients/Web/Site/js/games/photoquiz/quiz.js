// A photo quiz (docs/PROTOCOL.md, "Photo quizzes"): before the start, the players and a photo upload
// (the server strips and checks it); then each photo filling in tile by tile on a canvas with the
// countdown from the server's deadline, a guess by place name (the server suggests places as the name is
// typed) or by tapping the world map, confirmed before it is sent; then the reveal — the place, the date,
// everyone's guess with its distance and points — and at the end the standings with the host's
// rematch, which everyone follows. Watching shows the same screens without the upload and the guess.
//
// A new view arrives with every tile, several times a second: the screen is built once per phase and
// photo, and each view only updates it in place, so a button is never replaced under a finger and the
// name field keeps its text and focus.

import { followGame } from "../../follow.js";
import { h, fill } from "../../dom.js";
import { clock, count } from "../../format.js";
import { PhotoCanvas } from "./photo.js";
import { presenceDot } from "../../presence.js";
import { sharePanel } from "../../share.js";
import { WorldMap } from "./worldmap.js";
import { placeSuggestions, positionText } from "./places.js";

export function showQuiz(root, context, place) {
  const { connection } = context;
  const code = place.code;
  let quiz = null;
  let presence = new Map();
  let disposed = false;
  let sharing = false;
  let fresh = true;
  /** The guess being made for the current photo, before it is sent: `{latitude, longitude, label}`. */
  let pending = null;
  /** What this phone guessed for the current photo (the server says only that someone has guessed). */
  let sent = null;
  let photoId = null;
  let submitting = false;
  /** The screen as built: what it was built for, and how a newer view updates it. */
  let screen = null;

  const eyebrow = h("div", { class: "eyebrow" }, "Photo quiz");
  const shareButton = h("button", { type: "button", id: "share", "aria-expanded": "false" }, "Share");
  const leaveButton = h("button", { type: "button", id: "leave" }, "Leave");
  shareButton.addEventListener("click", () => {
    sharing = !sharing;
    render();
  });
  leaveButton.addEventListener("click", leave);
  const header = h("header", { class: "game-header" },
    h("div", {}, eyebrow, h("h1", { class: "code", id: "quiz-code" }, code)),
    h("div", { class: "row" }, shareButton, leaveButton));
  const body = h("div", { id: "quiz", class: "stack" }, h("p", { class: "muted" }, "Loading…"));
  root.append(header, body);

  const photo = new PhotoCanvas();
  const guessMap = new WorldMap({ id: "guess-map", onTap: (position) => choose({ ...position, label: positionText(position) }) });
  const revealMap = new WorldMap({ id: "reveal-map" });
  const countdown = h("span", { class: "countdown", id: "quiz-countdown", title: "Time left to guess" });
  const suggestions = placeSuggestions((chosen) => choose(chosen));
  const fileInput = h("input", { id: "photo-file", type: "file", accept: "image/jpeg" });
  const albumInput = h("input", { id: "photo-album", maxlength: 40, placeholder: "Album (Photos)", autocomplete: "off" });

  function choose(chosen) {
    pending = chosen;
    guessMap.setPin(chosen);
    render();
  }

  async function act(op, args, button) {
    if (button) button.disabled = true;
    try {
      const result = await connection.request(op, args);
      if (result?.version !== undefined) update(result);
      return true;
    } catch (error) {
      context.fail(error);
      return false;
    } finally {
      if (button) button.disabled = false;
      render();
    }
  }

  /** The host started a rematch: the players are seated there already (new photos to upload), and
   * everyone following goes on to it, as the shell does for the other games. */
  let followed = false;
  function update(next) {
    if (!next || (quiz && next.version < quiz.version)) return;
    quiz = next;
    if (quiz.rematch && !disposed && !followed) {
      followed = true;
      context.go({ kind: place.kind, code: quiz.rematch, watching: !me() });
      context.say(`On to the rematch: photo quiz ${quiz.rematch}.`);
      return;
    }
    const current = quiz.currentPhoto?.photoId ?? null;
    if (current !== photoId) {
      photoId = current;
      pending = null;
      sent = null;
      guessMap.setPin(null);
      suggestions.clear();
    }
    render();
  }

  const me = () => quiz?.players.find((player) => player.id === connection.userId) ?? null;
  const isHost = () => quiz?.hostId === connection.userId;
  const nameOf = (id) => quiz?.players.find((player) => player.id === id)?.name ?? "Someone";

  function render() {
    if (disposed || !quiz) return;
    const watching = !me();
    fill(eyebrow, watching ? "Watching a photo quiz" : "Photo quiz");
    fill(leaveButton, watching || quiz.phase === "complete" ? "Close" : "Leave");
    fill(shareButton, sharing ? "Hide" : "Share");
    shareButton.setAttribute("aria-expanded", String(sharing));
    const key = [quiz.phase, photoId, sharing, watching, isHost()].join("|");
    if (screen?.key !== key) {
      const focused = document.activeElement;
      const built = quiz.phase === "waiting" ? waiting() : quiz.phase === "revealing" ? revealing() : quiz.phase === "revealed" ? revealed() : standings();
      screen = { key, ...built };
      fill(body, sharing ? sharePanel(code, context) : null, ...built.parts);
      if (focused?.isConnected && focused !== document.body) focused.focus({ preventScroll: true });
    }
    screen.refresh?.();
  }

  function settingsText() {
    const { revealSpeed, timerDuration, sessionLength } = quiz.settings;
    const length = sessionLength === "endless" ? "endless" : `${sessionLength} photos`;
    return `${revealSpeed} reveal · ${timerDuration} s to guess · ${length}`;
  }

  function waiting() {
    const list = h("ul", { class: "players", id: "quiz-players" });
    const settings = h("p", { class: "muted", id: "quiz-settings" });
    const uploads = h("p", { class: "status", id: "upload-count" });
    const section = h("section", { class: "card" }, h("h2", {}, "Players"), settings, list, uploads);
    const parts = [section];
    let start = null;
    if (me()) {
      const upload = h("button", { id: "upload-photo", type: "submit", class: "primary" }, "Upload");
      const form = h("form", { class: "card", id: "upload-form" },
        h("h2", {}, "Add a photo"),
        h("p", { class: "muted small" }, "A JPEG from a phone's camera, with its location: the server keeps where it was taken secret until the reveal."),
        fileInput, albumInput, upload);
      form.addEventListener("submit", (event) => {
        event.preventDefault();
        uploadPhoto(upload);
      });
      parts.push(form);
    }
    if (isHost()) {
      start = h("button", { id: "start-quiz", type: "button", class: "primary" }, "Start the quiz");
      start.addEventListener("click", () => act("startQuiz", { code }, start));
      section.append(start);
    } else {
      section.append(h("p", { class: "muted", id: "host-starts" }, "The host starts the quiz."));
    }
    return {
      parts,
      refresh() {
        fill(settings, settingsText());
        fill(uploads, `${count(quiz.uploadCount, "photo")} in ${count(quiz.albums.length, "album")}`);
        fill(list, quiz.players.map((player) => h("li", { dataset: { player: player.id } },
          presenceDot(player.id, presence),
          h("span", { class: "name" }, player.name, player.id === connection.userId ? " (you)" : ""),
          player.id === quiz.hostId ? h("span", { class: "tag" }, "host") : null,
          h("span", { class: "muted small" }, count(player.photoCount, "photo")))));
        if (start) start.disabled = quiz.uploadCount === 0;
      },
    };
  }

  async function uploadPhoto(button) {
    const file = fileInput.files?.[0];
    if (!file) {
      context.say("Choose a photo first.");
      return;
    }
    const album = albumInput.value.trim();
    button.disabled = true;
    try {
      const query = album ? `?album=${encodeURIComponent(album)}` : "";
      const response = await fetch(`/quizzes/${encodeURIComponent(code)}/photos${query}`, {
        method: "POST", body: file, headers: { "Content-Type": "image/jpeg", Authorization: `Bearer ${connection.token}` },
      });
      const answer = await response.json().catch(() => null);
      if (!response.ok) {
        context.fail(answer?.error ?? { code: "", message: `The upload failed (${response.status}).` });
        return;
      }
      fileInput.value = "";
      context.say(`Photo added to ${answer.album}.`);
    } catch {
      context.fail({ code: "OFFLINE", status: "unavailable" });
    } finally {
      button.disabled = false;
    }
  }

  function photoTitle() {
    const current = quiz.currentPhoto;
    const of = quiz.settings.sessionLength === "endless" ? "" : ` of ${quiz.photoCount}`;
    const whose = current.uploadedBy === connection.userId ? "your photo" : `${nameOf(current.uploadedBy)}'s photo`;
    return `Photo ${quiz.photoIndex + 1}${of} · ${whose}`;
  }

  function revealing() {
    const current = quiz.currentPhoto;
    const mine = current.uploadedBy === connection.userId;
    const title = h("span", {});
    const status = h("p", { class: mine ? "status" : "muted small", id: "guess-status" });
    const parts = [h("section", { class: "card photo-card" }, h("div", { class: "photo-caption", id: "photo-caption" }, title, countdown), photo.canvas)];
    let confirm = null;
    if (me() && !mine) {
      confirm = h("button", { type: "button", id: "confirm-guess", class: "primary" });
      confirm.addEventListener("click", () => {
        const guess = pending;
        if (!guess) return;
        submitting = true;
        act("submitGuess", { code, latitude: guess.latitude, longitude: guess.longitude }, confirm).then((ok) => {
          submitting = false;
          if (!ok) return render();
          sent = guess;
          pending = null;
          guessMap.setPin(guess);
          render();
        });
      });
      parts.push(h("section", { class: "card guess", id: "guess-card" },
        h("h2", {}, "Where was it taken?"), suggestions.element, guessMap.canvas, status, confirm));
    } else {
      parts.push(status);
    }
    if (isHost()) {
      const reveal = h("button", { type: "button", id: "reveal-now" }, "Reveal now");
      reveal.addEventListener("click", () => act("reveal", { code }, reveal));
      parts.push(h("div", { class: "row" }, reveal));
    }
    return {
      parts,
      refresh() {
        photo.show(code, quiz.currentPhoto, false);
        fill(title, photoTitle());
        tick();
        const guessed = quiz.players.filter((player) => player.hasGuessed).length;
        const eligible = quiz.players.filter((player) => player.id !== current.uploadedBy).length;
        const tally = `${guessed} of ${eligible} guessed.`;
        if (!confirm) {
          fill(status, mine ? `This is your photo: the others guess it. ${tally}` : tally);
          return;
        }
        fill(status, sent ? `Your guess: ${sent.label}. Pick another place to change it. ${tally}` : `Type a place, or tap the map. ${tally}`);
        status.className = sent ? "status" : "muted small";
        fill(confirm, pending ? `Guess ${pending.label}` : sent ? "Guessed" : "Pick a place");
        confirm.disabled = !pending || submitting;
      },
    };
  }

  function revealed() {
    const answer = quiz.answer;
    const where = answer.isOffline || !answer.city
      ? positionText(answer.coordinate)
      : [answer.city, answer.country].filter(Boolean).join(", ");
    const marks = [{ ...answer.coordinate, kind: "answer", label: "" }];
    for (const guess of quiz.guesses ?? []) {
      marks.push({ latitude: guess.latitude, longitude: guess.longitude, kind: guess.playerId === connection.userId ? "mine" : "guess", label: initial(nameOf(guess.playerId)) });
    }
    revealMap.setMarks(marks);
    const rows = (quiz.guesses ?? []).map((guess) => h("tr", { dataset: { player: guess.playerId } },
      h("th", { scope: "row" }, nameOf(guess.playerId), guess.playerId === connection.userId ? " (you)" : ""),
      h("td", { class: "num" }, distanceText(guess.distanceKm)),
      h("td", { class: "num" }, String(guess.points))));
    const ranked = [...quiz.players].sort((a, b) => b.score - a.score);
    const parts = [
      h("section", { class: "card photo-card" }, h("div", { class: "photo-caption", id: "photo-caption" }, photoTitle()), photo.canvas),
      h("section", { class: "card", id: "reveal" },
        h("p", { class: "winner", id: "answer" }, where),
        h("p", { class: "muted", id: "answer-date" }, answer.displayDate),
        revealMap.canvas,
        rows.length
          ? h("div", { class: "table-wrap" }, h("table", { class: "scores", id: "guesses" },
            h("thead", {}, h("tr", {}, ["Player", "Distance", "Points"].map((label) => h("th", { scope: "col" }, label)))),
            h("tbody", {}, rows)))
          : h("p", { class: "muted", id: "guesses" }, "Nobody guessed."),
        h("h2", {}, "Scores"),
        h("ol", { class: "players", id: "quiz-scores" }, ranked.map((player) => h("li", { dataset: { player: player.id } },
          h("span", { class: "name" }, player.name, player.id === connection.userId ? " (you)" : ""),
          h("span", { class: "num" }, String(player.score)))))),
    ];
    if (isHost()) {
      const last = quiz.settings.sessionLength !== "endless" && quiz.photoIndex + 1 >= quiz.photoCount;
      const next = h("button", { type: "button", id: "next-photo", class: "primary" }, last ? "See the standings" : "Next photo");
      next.addEventListener("click", () => act("nextPhoto", { code }, next));
      const quit = last ? null : h("button", { type: "button", id: "quit-quiz" }, "End the quiz");
      quit?.addEventListener("click", () => act("quitQuiz", { code }, quit));
      parts.push(h("div", { class: "row" }, next, quit));
    } else {
      parts.push(h("p", { class: "muted" }, "The host goes on to the next photo."));
    }
    return { parts, refresh: () => photo.show(code, quiz.currentPhoto, true) };
  }

  function standings() {
    return {
      parts: [h("section", { class: "card", id: "quiz-standings" },
        h("h2", {}, "Standings"),
        h("ol", { class: "players" }, (quiz.standings ?? []).map((entry) =>
          h("li", { dataset: { player: entry.playerId } },
            h("span", { class: "rank" }, `${entry.rank}.`),
            h("span", { class: "name" }, entry.name, entry.playerId === connection.userId ? " (you)" : ""),
            h("span", { class: "num" }, String(entry.score)))))), rematchButton()],
    };
  }

  /** The host plays again: the same players and settings, new photos. */
  function rematchButton() {
    if (!isHost()) return h("p", { class: "muted", id: "rematch-note" }, "The host may start a rematch; this screen follows it.");
    const button = h("button", { id: "rematch", type: "button", class: "primary big" }, "Rematch: same players, new photos");
    button.addEventListener("click", () => act("rematchQuiz", { code }, button));
    return button;
  }

  function tick() {
    const deadline = quiz?.phase === "revealing" ? Date.parse(quiz.currentPhoto?.guessDeadline ?? "") : NaN;
    if (Number.isNaN(deadline)) return;
    const left = (deadline - connection.serverNow()) / 1000;
    fill(countdown, clock(left));
    countdown.classList.toggle("urgent", left <= 5);
  }
  const ticker = setInterval(tick, 250);

  async function leave() {
    if (me() && quiz?.phase !== "complete") {
      if (!confirm("Leave this quiz?")) return;
      try {
        await connection.request("leaveQuiz", { code });
      } catch (error) {
        if (error.code !== "QUIZ_NOT_FOUND" && error.code !== "NOT_QUIZ_MEMBER") {
          context.fail(error);
          return;
        }
      }
    }
    context.go(null);
  }

  const stream = followGame(context, {
    op: "observeQuiz", args: { code }, viewEvent: "quiz", closed: "The quiz was closed.",
    view(data) {
      if (quiz && data.version < quiz.version) return;
      // As in the word game: the first view after observing again may be old; later ones are sent as
      // they happen, so their serverTime is the server's clock now.
      if (fresh) connection.noteServerTime(data.serverTime);
      fresh = true;
      update(data);
    },
    presence(online) {
      presence = online;
      render();
    },
    other(event) {
      if (event === "subscribed") fresh = false;
    },
  });

  return {
    dispose() {
      disposed = true;
      clearInterval(ticker);
      suggestions.clear();
      stream.stop();
    },
  };
}

function initial(name) {
  return [...name.trim()][0]?.toUpperCase() ?? "?";
}

/** "800 m", "12.5 km", "16,960 km". */
export function distanceText(km) {
  if (km < 1) return `${Math.round(km * 1000)} m`;
  if (km < 100) return `${Math.round(km * 10) / 10} km`;
  return `${Math.round(km).toLocaleString("en")} km`;
}
