// Numbers as a page shows them, for any game: counted nouns and a countdown's clock.

/** "1 word", "2 words". */
export function count(number, noun) {
  return `${number} ${noun}${number === 1 ? "" : "s"}`;
}

/** "1:05" for 65 seconds. */
export function clock(seconds) {
  const whole = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
}
