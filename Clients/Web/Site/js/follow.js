// Following one game's stream, the same for every game's screen: its views, who is connected, the
// operator's reason that comes before a closing null, back home (saying why) when the game goes or the
// stream fails, and the subscription stopped when the screen goes.

import { closedSentence } from "./errors.js";

/**
 * Subscribes with `op(args)`. `view(data)` gets each `viewEvent` that carries a view; `presence(map)`
 * gets who is connected (user id → online); `other(event, data)` gets any other event (a private
 * view, `subscribed` after a reconnect, `end`); `subscribed(result)` gets the first reply. `closed`
 * is the sentence for a game that went ("The room was closed."). Returns `{ stop() }` for `dispose`.
 */
export function followGame(context, { op, args, viewEvent, closed, view, presence, other, subscribed }) {
  let subscription = null;
  let stopped = false;
  let closedReason = null;

  function onEvent(event, data) {
    if (event === "closed") {
      closedReason = data?.reason ?? null;
    } else if (event === viewEvent) {
      if (data === null) {
        context.go(null);
        context.say(closedSentence(closed, closedReason));
      } else {
        view(data);
      }
    } else if (event === "presence") {
      presence(new Map((data?.players ?? []).map((player) => [player.userId, player.online])));
    } else if (event === "error") {
      context.go(null);
      context.fail(data);
    } else {
      other?.(event, data);
    }
  }

  context.connection.subscribe(op, args, onEvent).then((reply) => {
    subscribed?.(reply.result);
    if (stopped) reply.stop();
    else subscription = reply;
  }, (error) => {
    context.go(null);
    context.fail(error);
  });

  return {
    stop() {
      stopped = true;
      subscription?.stop();
    },
  };
}
