// The one WebSocket to parlor-server (docs/PROTOCOL.md): `hello` with the token kept in localStorage,
// requests with ids answered in order, subscriptions whose events are routed by `sub`, and — when the
// network drops or the phone sleeps — reconnecting with backoff, signing in as the same user and
// observing again everything that was observed, so the screen comes back to the same seat.

const tokenKey = "parlor.token";

/** An error the server answered with (`code`, `status`, `message`), or one of the client's own:
 * `OFFLINE` (not connected) and `TIMEOUT` (no answer in time). */
export class ServerError extends Error {
  constructor({ code, status, message }) {
    super(message ?? code);
    this.code = code;
    this.status = status;
  }
}

/** Reconnect delays: 200 ms doubling to 5 s, each drawn between half and all of it so a restarted
 * server is not met by every phone at the same instant. */
export function backoffDelay(attempt, random = Math.random()) {
  const base = Math.min(5000, 200 * 2 ** Math.max(0, attempt - 1));
  return base / 2 + (base / 2) * random;
}

/** Events: "state" (detail: "connecting" | "online" | "offline"), "resumed" (after a reconnect has
 * signed in again and observed everything again). */
export class Connection extends EventTarget {
  constructor({ url, storage = window.localStorage, requestTimeout = 15000 } = {}) {
    super();
    this.url = url;
    this.storage = storage;
    this.requestTimeout = requestTimeout;
    this.state = "connecting";
    this.userId = null;
    /** Server clock minus this device's clock, in milliseconds. */
    this.clockOffset = 0;
    this.socket = null;
    this.nextId = 1;
    this.pending = new Map();
    /** Live subscriptions: the request that made each, re-sent after a reconnect. */
    this.subscriptions = new Set();
    this.bySub = new Map();
    this.attempt = 0;
    this.retryTimer = null;
    this.everOnline = false;
    this.ready = new Promise((resolve) => (this.resolveReady = resolve));
    window.addEventListener("online", () => this.retrySoon());
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") this.checkAlive();
    });
  }

  start() {
    this.open();
    return this.ready;
  }

  /** The token this phone signs in with, for requests made over HTTP (a photo upload). */
  get token() {
    return this.storage.getItem(tokenKey);
  }

  /** The server's clock now, as milliseconds since the epoch. */
  serverNow() {
    return Date.now() + this.clockOffset;
  }

  /** Takes the server's time (ISO-8601) as of now into the clock offset. */
  noteServerTime(iso) {
    const time = Date.parse(iso);
    if (!Number.isNaN(time)) this.clockOffset = time - Date.now();
  }

  /** Sends `op` and resolves with its result, or rejects with a ServerError. */
  request(op, args) {
    if (this.state !== "online") return Promise.reject(new ServerError({ code: "OFFLINE", status: "unavailable", message: "You are offline." }));
    return this.send(op, args);
  }

  /** Observes a stream: resolves with the reply's result once subscribed; `onEvent(event, data)` gets
   * its events until `stop()`, across reconnects — each reconnect's reply as a "subscribed" event, and
   * "error" when the stream cannot be observed again (the game went while this phone was away). */
  async subscribe(op, args, onEvent) {
    const subscription = { op, args, onEvent, sub: null, stopped: false };
    const result = await this.request(op, args);
    this.attach(subscription, result);
    this.subscriptions.add(subscription);
    return {
      result,
      stop: () => this.stopSubscription(subscription),
    };
  }

  stopSubscription(subscription) {
    if (subscription.stopped) return;
    subscription.stopped = true;
    this.subscriptions.delete(subscription);
    if (subscription.sub !== null) {
      this.bySub.delete(subscription.sub);
      if (this.state === "online") this.send("unsubscribe", { subscription: subscription.sub }).catch(() => {});
    }
  }

  attach(subscription, result) {
    subscription.sub = result?.subscription ?? null;
    if (subscription.sub !== null) this.bySub.set(subscription.sub, subscription);
  }

  // MARK: The socket

  open() {
    clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.setState(this.everOnline ? "offline" : "connecting");
    let socket;
    try {
      socket = new WebSocket(this.url, ["parlor.v1"]);
    } catch {
      this.scheduleRetry();
      return;
    }
    this.socket = socket;
    socket.addEventListener("open", () => this.signIn(socket));
    socket.addEventListener("message", (message) => this.receive(message.data));
    socket.addEventListener("close", () => {
      if (this.socket !== socket) return;
      this.lost();
    });
  }

  async signIn(socket) {
    try {
      const token = this.storage.getItem(tokenKey);
      const hello = await this.send("hello", token ? { token } : {});
      if (this.socket !== socket) return;
      this.storage.setItem(tokenKey, hello.token);
      this.userId = hello.userId;
      const resumed = this.everOnline;
      // Observe again what was observed before the connection dropped: the new subscription numbers
      // replace the old ones, and each stream starts with its current view.
      this.bySub.clear();
      for (const subscription of [...this.subscriptions]) {
        try {
          const result = await this.send(subscription.op, subscription.args);
          this.attach(subscription, result);
          // Before any of the new stream's events: they are handled in a later task than this reply.
          subscription.onEvent("subscribed", result);
        } catch (error) {
          this.subscriptions.delete(subscription);
          subscription.onEvent("error", error);
        }
      }
      this.attempt = 0;
      this.everOnline = true;
      this.setState("online");
      this.resolveReady();
      if (resumed) this.dispatchEvent(new Event("resumed"));
    } catch {
      if (this.socket === socket) socket.close();
    }
  }

  lost() {
    this.socket = null;
    for (const [, waiter] of this.pending) {
      clearTimeout(waiter.timer);
      waiter.reject(new ServerError({ code: "OFFLINE", status: "unavailable", message: "The connection was lost." }));
    }
    this.pending.clear();
    this.setState(this.everOnline ? "offline" : "connecting");
    this.scheduleRetry();
  }

  scheduleRetry() {
    if (this.retryTimer) return;
    this.attempt += 1;
    this.retryTimer = setTimeout(() => this.open(), backoffDelay(this.attempt));
  }

  /** The network came back: try now rather than at the end of the current backoff. */
  retrySoon() {
    if (this.socket) return;
    this.attempt = 0;
    this.open();
  }

  /** After the phone slept, a socket may look open and be dead: ask the server something cheap. */
  async checkAlive() {
    if (!this.socket) {
      this.retrySoon();
      return;
    }
    if (this.state !== "online") return;
    const socket = this.socket;
    try {
      await this.send("hello", {}, 5000);
    } catch (error) {
      if (error.code === "TIMEOUT" && this.socket === socket) socket.close();
    }
  }

  /** Closes the socket as a dropped network would; the connection comes back by itself. */
  drop() {
    this.socket?.close();
  }

  send(op, args, timeout = this.requestTimeout) {
    const socket = this.socket;
    if (!socket || socket.readyState !== WebSocket.OPEN) {
      return Promise.reject(new ServerError({ code: "OFFLINE", status: "unavailable", message: "You are offline." }));
    }
    const id = this.nextId++;
    const frame = args === undefined ? { id, op } : { id, op, args };
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new ServerError({ code: "TIMEOUT", status: "unavailable", message: "The server did not answer." }));
      }, timeout);
      this.pending.set(id, { resolve, reject, timer });
      socket.send(JSON.stringify(frame));
    });
  }

  receive(text) {
    let message;
    try {
      message = JSON.parse(text);
    } catch {
      return;
    }
    if (message.sub !== undefined) {
      const subscription = this.bySub.get(message.sub);
      if (!subscription) return;
      if (message.event === "end") {
        this.bySub.delete(message.sub);
        this.subscriptions.delete(subscription);
      }
      subscription.onEvent(message.event, message.data);
      return;
    }
    const waiter = this.pending.get(message.id);
    if (!waiter) return;
    this.pending.delete(message.id);
    clearTimeout(waiter.timer);
    if (message.error) {
      const error = new ServerError(message.error);
      // The server is going away: stop sending and come back in a moment.
      if (error.code === "SHUTTING_DOWN") this.socket?.close();
      waiter.reject(error);
    } else {
      waiter.resolve(message.result ?? null);
    }
  }

  setState(state) {
    if (this.state === state) return;
    this.state = state;
    this.dispatchEvent(new CustomEvent("state", { detail: state }));
  }
}
