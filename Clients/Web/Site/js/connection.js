// The one WebSocket to parlor-server (docs/PROTOCOL.md): `hello` with the token kept in localStorage,
// requests with ids answered in order, subscriptions whose events are routed by `sub`, and — when the
// network drops or the phone sleeps — reconnecting with backoff, signing in as the same user and
// observing again everything that was observed, so the screen comes back to the same seat.
//
// In a cluster, each game is served by one node, which its stream names (a `node` event): when every
// game this page follows is served by another node than the one it reached, it moves there —
// connecting again with `?node=NAME`, which the front routes by — as quietly as a reconnect. A node
// that is restarting closes with 1012: the page reconnects at once, to another node.

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

/** Which node of a cluster to be on, from the `node` events of the games followed. A connection that
 * asked for a node and reached another does not move to it again (the front cannot reach it now). */
export class NodeRouting {
  constructor() {
    /** The node the next connection asks for (null: any). */
    this.preferred = null;
    this.asked = null;
    this.reached = null;
    /** Subscription number → the node serving its game, on the current connection. */
    this.servedBy = new Map();
  }

  /** A new connection: the node it asks for. */
  connecting() {
    this.asked = this.preferred;
    this.reached = null;
    this.servedBy.clear();
    return this.preferred;
  }

  signedIn(node) {
    this.reached = node ?? null;
  }

  /** A game followed on subscription `sub` is served by `node`: the node to move to now, or null. */
  heard(sub, node) {
    this.servedBy.set(sub, node);
    const nodes = new Set(this.servedBy.values());
    if (nodes.size !== 1 || this.reached === null) return null;
    const [target] = nodes;
    if (target === this.reached) this.preferred = target;
    if (target === this.reached || target === this.asked) return null;
    this.preferred = target;
    return target;
  }

  ended(sub) {
    this.servedBy.delete(sub);
  }

  /** `url` asking the front for `node`. */
  static url(url, node) {
    if (!node) return url;
    return url + (url.includes("?") ? "&" : "?") + "node=" + encodeURIComponent(node);
  }
}

/** The close code of a node that is restarting (a draining node of a cluster). */
const serviceRestart = 1012;
/** How long a move waits for the requests already sent to be answered. */
const moveGrace = 2000;

/** Events: "state" (detail: "connecting" | "online" | "offline"), "resumed" (after a reconnect has
 * signed in again and observed everything again), "tokenExpired" (detail: the event's data: the
 * account's JWT this connection signed in with has expired; `refreshAuth` with a fresh one keeps it),
 * "signInRefused" (detail: the ServerError: the handed-over JWT was not accepted). */
export class Connection extends EventTarget {
  constructor({ url, storage = window.localStorage, requestTimeout = 15000, jwt = null } = {}) {
    super();
    this.url = url;
    /** An account's JWT handed over by the app (js/account.js): the first sign-in uses it. */
    this.jwt = jwt;
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
    this.routing = new NodeRouting();
    /** While moving to another node: resolves once the new connection is signed in. */
    this.moving = null;
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

  /**
   * Forgets the identity this phone signed in as (its account was deleted): the next connection — the
   * server closes the deleted identity's at once — signs in as a new player.
   */
  forgetIdentity() {
    this.storage.removeItem(tokenKey);
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

  /** Sends `op` and resolves with its result, or rejects with a ServerError. A request the server
   * refused because it is restarting (it did nothing with it) goes again once this page is back. */
  async request(op, args) {
    for (let attempt = 0; ; attempt++) {
      // A move to another node is a moment's wait, not being offline.
      if (this.moving) await this.moving.promise;
      if (this.state !== "online") throw new ServerError({ code: "OFFLINE", status: "unavailable", message: "You are offline." });
      try {
        return await this.send(op, args);
      } catch (error) {
        if (error.code !== "SHUTTING_DOWN" || attempt > 0) throw error;
        await this.onlineAgain(this.requestTimeout);
      }
    }
  }

  /** Resolves once a new connection is signed in (or after `timeout`, whatever the state). */
  onlineAgain(timeout) {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.removeEventListener("resumed", done);
        resolve();
      };
      const timer = setTimeout(done, timeout);
      this.addEventListener("resumed", done);
    });
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
      socket = new WebSocket(NodeRouting.url(this.url, this.routing.connecting()), ["parlor.v1"]);
    } catch {
      this.scheduleRetry();
      return;
    }
    this.socket = socket;
    socket.addEventListener("open", () => this.signIn(socket));
    socket.addEventListener("message", (message) => this.receive(message.data));
    socket.addEventListener("close", (event) => {
      if (this.socket !== socket) return;
      if (this.moving && !this.moving.left) {
        // Moving to the node that serves the game: straight back, no banner, no backoff (a second
        // close, of the new connection, is a lost connection like any other).
        this.moving.left = true;
        this.socket = null;
        this.failPending("The connection moved to another server.");
        this.open();
        return;
      }
      this.lost(event.code === serviceRestart);
    });
  }

  /** Leaves this connection for one that asks for `node`, once the requests already sent are answered. */
  async moveTo(node) {
    if (this.moving) return;
    let resolve;
    const promise = new Promise((done) => (resolve = done));
    this.moving = { promise, resolve, left: false };
    const socket = this.socket;
    const deadline = Date.now() + moveGrace;
    while (this.pending.size > 0 && Date.now() < deadline) await new Promise((done) => setTimeout(done, 10));
    if (this.socket === socket && socket) socket.close(1000, "moving to node " + node);
    else this.arrived();
  }

  /** The move is over (signed in on the new connection, or given up). */
  arrived() {
    const moving = this.moving;
    this.moving = null;
    moving?.resolve();
  }

  async signIn(socket) {
    try {
      const token = this.storage.getItem(tokenKey);
      let hello;
      if (this.jwt) {
        try {
          hello = await this.send("hello", { jwt: this.jwt });
          // Signed in as the account: the token it answers (kept below) signs this page in as the
          // account after a reload or a reconnect, as any token does.
        } catch (error) {
          if (error.code === "OFFLINE" || error.code === "TIMEOUT") throw error;
          this.dispatchEvent(new CustomEvent("signInRefused", { detail: error }));
        }
        this.jwt = null;
      }
      hello ??= await this.send("hello", token ? { token } : {});
      if (this.socket !== socket) return;
      this.storage.setItem(tokenKey, hello.token);
      this.userId = hello.userId;
      this.routing.signedIn(hello.node);
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
      this.arrived();
    } catch {
      if (this.socket === socket) socket.close();
    }
  }

  /** The connection ended; `restarting`: its node said it is restarting (1012), so another node will
   * take the page at once. */
  lost(restarting = false) {
    this.socket = null;
    // A restarting node answers every request it has read before it closes with 1012: what it left
    // unanswered it never read, so those go again on the next connection, as after SHUTTING_DOWN.
    if (restarting) this.failPending("The server is restarting; reconnecting…", "SHUTTING_DOWN");
    else this.failPending("The connection was lost.");
    this.arrived();
    this.setState(this.everOnline ? "offline" : "connecting");
    if (restarting) {
      // Every page the node had reconnects now: a short random wait spreads them out.
      this.routing.preferred = null;
      this.attempt = 0;
      clearTimeout(this.retryTimer);
      this.retryTimer = setTimeout(() => this.open(), Math.random() * 250);
      return;
    }
    this.scheduleRetry();
  }

  /** Requests that will get no answer on a connection that has gone. */
  failPending(message, code = "OFFLINE") {
    for (const [, waiter] of this.pending) {
      clearTimeout(waiter.timer);
      waiter.reject(new ServerError({ code, status: "unavailable", message }));
    }
    this.pending.clear();
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

  /** A fresh JWT of the account this page signed in with keeps the connection past the old one's expiry. */
  refreshAuth(jwt) {
    return this.send("refreshAuth", { jwt });
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
    if (message.sub === undefined && message.event === "tokenExpired") {
      this.dispatchEvent(new CustomEvent("tokenExpired", { detail: message.data }));
      return;
    }
    if (message.sub !== undefined) {
      if (message.event === "node") {
        const target = this.routing.heard(message.sub, message.data?.node);
        if (target) this.moveTo(target);
        return;
      }
      if (message.event === "end") this.routing.ended(message.sub);
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
      // The server is going away: stop sending and come back in a moment, to another node.
      if (error.code === "SHUTTING_DOWN") {
        this.routing.preferred = null;
        this.socket?.close();
      }
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
