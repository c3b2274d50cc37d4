// Photo quizzes, as the browser offers them: the code's shape, the settings and the button that start a
// quiz, joining and watching by code, the page (quiz.js) and what its error codes mean.

import { h } from "../../dom.js";
import { showQuiz } from "./quiz.js";

export const photoQuiz = {
  kind: "quiz",
  // Its finished games' records (replay.js): the kind the server names them by, and who the ids of a
  // step's view are.
  record: { kind: "photo-quiz", names: (view) => view.players.map((player) => [player.id, player.name]) },
  noun: "photo quiz",
  codes: { pattern: /^[A-Z]{5}$/, shape: "5 letters", owner: "a photo quiz" },
  show: showQuiz,
  errors: {
    QUIZ_NOT_FOUND: "There is no photo quiz with that code.",
    QUIZ_FULL: "Every seat in that quiz is taken.",
    NOT_QUIZ_MEMBER: "You are not playing in this quiz.",
    NO_PHOTOS: "Upload a photo before starting.",
    TOO_MANY_PHOTOS: "The quiz holds 100 photos already.",
    OWN_PHOTO: "That is your photo: the others guess it.",
    NO_LOCATION: "That photo does not say where it was taken (no GPS position); choose another.",
    NOT_JPEG: "That is not a JPEG photo.",
    INVALID_IMAGE: "That photo cannot be read, or it is too small.",
    UPLOADS_BUSY: "The server is busy with other photos; try again in a moment.",
    REQUEST_TOO_LARGE: "That photo is too large (15 MB at most).",
    PLACES_UNAVAILABLE: "This server has no list of places: tap the map instead.",
  },
  async join(connection, code, playerName, access = {}) {
    await connection.request("joinQuiz", { code, playerName, ...access });
    return { kind: "quiz", code };
  },
  async watch(connection, code) {
    await connection.request("getQuiz", { code });
    return { kind: "quiz", code, watching: true };
  },
  start() {
    const revealSpeed = h("select", { id: "quiz-speed" },
      [["slow", "Slow"], ["medium", "Medium"], ["fast", "Fast"]].map(([speed, label]) => h("option", { value: speed, selected: speed === "medium" }, label)));
    const timer = h("input", { id: "quiz-timer", type: "number", inputmode: "numeric", min: 10, max: 120, value: 30 });
    const length = h("select", { id: "quiz-length" },
      [["5", "5"], ["10", "10"], ["20", "20"], ["endless", "Endless"]].map(([value, label]) => h("option", { value, selected: value === "10" }, label)));
    return {
      id: "create-quiz", label: "New photo quiz",
      settings: h("details", {},
        h("summary", {}, "Photo quiz settings"),
        h("div", { class: "fields" },
          h("label", {}, "Reveal", revealSpeed),
          h("label", {}, "Seconds", timer),
          h("label", {}, "Photos", length))),
      async create(connection, playerName, access = {}) {
        const created = await connection.request("createQuiz", {
          playerName, revealSpeed: revealSpeed.value, timerDuration: Number(timer.value), sessionLength: length.value, ...access,
        });
        return { kind: "quiz", code: created.quiz.code };
      },
    };
  },
};
