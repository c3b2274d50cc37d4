// A photo quiz (docs/PROTOCOL.md, "Photo quizzes"): before the start, the players and a photo upload
// (the server strips and checks it); then each photo filling in tile by tile on a canvas with the
// countdown from the server's deadline, a guess by place name (the server suggests places as the name is
// typed) or by tapping the world map, confirmed before it is sent; then the reveal — the place, the date,
// everyone's guess with its distance and points — and at the end the standings with the host's
// rematch, which everyone follows. Watching shows the same screens without the upload and the guess.
//
// A new view arrives with every tile, several times a second: the screen is built once per phase and
// photo, and each view only updates it in place, so a button is never replaced under a finger and the
// name field keeps its text and focus. Everything else — the header, sharing, the stream and the
// server's clock, presence, following the rematch, removing a player, leaving — is the shell's.

import { h, fill } from "../../dom.js";
import { clock, count } from "../../format.js";
import { PhotoCanvas } from "./photo.js";
import { presenceDot } from "../../presence.js";
import { gamePage } from "../../shell.js";
import { WorldMap } from "./worldmap.js";
import { placeSuggestions, positionText } from "./places.js";

export function showQuiz(root, context, place, game) {
  const { connection } = context;
  const code = place.code;
  /** The view being drawn (the shell keeps the newest; every new one is drawn). */
  let quiz = null;
  /** The guess being made for the current photo, before it is sent: `{latitude, longitude, label}`. */
  let pending = null;
  /** What this phone guessed for the current photo (the server says only that someone has guessed). */
  let sent = null;
  let photoId = null;
  let submitting = false;
  /** The screen as built: what it was built for, and how a newer view updates it. */
  let screen = null;

  const photo = new PhotoCanvas();
  const guessMap = new WorldMap({ id: "guess-map", onTap: (position) => choose({ ...position, label: positionText(position) }) });
  const revealMap = new WorldMap({ id: "reveal-map" });
  const countdown = h("span", { class: "countdown", id: "quiz-countdown", title: "Time left to guess" });
  const suggestions = placeSuggestions((chosen) => choose(chosen));
  const fileInput = h("input", { id: "photo-file", type: "file", accept: "image/jpeg" });
  const albumInput = h("input", { id: "photo-album", maxlength: 40, placeholder: "Album (Photos)", autocomplete: "off" });

  const { ui, dispose } = gamePage(root, context, place, game, {
    codeId: "quiz-code", bodyId: "quiz",
    eyebrow: (view, watching) => (view && watching ? "Watching a photo quiz" : "Photo quiz"),
    observe: { op: "observeQuiz", args: { code }, viewEvent: "quiz", closed: "The quiz was closed." },
    viewOf: (result) => (result?.version !== undefined ? result : null),
    isMember: (view, userId) => view.players.some((player) => player.id === userId),
    // The players are seated in the rematch already (new photos to upload).
    rematchOf: (view) => view.rematch ?? null,
    kick: {
      host: (view) => view.hostId,
      seats: (view) => view.players.map((player) => ({ id: player.id, name: player.name })),
      allowed: (view) => view.phase !== "complete",
      op: "removeQuizPlayer", args: (playerId) => ({ code, playerId }),
    },
    leave: (view) => (view.phase !== "complete"
      ? { confirm: "Leave this quiz?", op: "leaveQuiz", args: { code }, gone: ["NOT_QUIZ_MEMBER"] }
      : null),
    // The name field and the upload's fields keep their text and focus.
    keepFocus: () => true,
    onView(next) {
      const current = next.currentPhoto?.photoId ?? null;
      if (current === photoId) return;
      photoId = current;
      pending = null;
      sent = null;
      guessMap.setPin(null);
      suggestions.clear();
    },
    draw,
    drawn: () => screen.refresh?.(),
  });
  const render = () => ui.render();

  function choose(chosen) {
    pending = chosen;
    guessMap.setPin(chosen);
    render();
  }

  /** Asks the server through the shell; the screen is brought up to date either way. */
  function act(op, args, button) {
    return ui.act(op, args, button).finally(render);
  }

  const me = () => quiz?.players.find((player) => player.id === connection.userId) ?? null;
  const isHost = () => quiz?.hostId === connection.userId;
  const nameOf = (id) => quiz?.players.find((player) => player.id === id)?.name ?? "Someone";

  /** The screen for the view: built again only for another phase or photo, or another part to play. */
  function draw() {
    quiz = ui.view;
    const key = [quiz.phase, photoId, ui.watching, isHost()].join("|");
    if (screen?.key !== key) {
      const built = quiz.phase === "waiting" ? waiting() : quiz.phase === "revealing" ? revealing() : quiz.phase === "revealed" ? revealed() : standings();
      screen = { key, ...built };
    }
    return screen.parts;
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
          presenceDot(player.id, ui.presence),
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
    const left = (deadline - ui.now()) / 1000;
    fill(countdown, clock(left));
    countdown.classList.toggle("urgent", left <= 5);
  }
  const ticker = setInterval(tick, 250);

  return {
    dispose() {
      clearInterval(ticker);
      suggestions.clear();
      dispose();
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
