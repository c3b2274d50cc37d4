'use strict';
// One connection on /ws: reads each request, checks who is asking, runs it against the rooms and
// answers; forwards the `room` events of the rooms it observes.
//
// Node runs one request to completion before the next, so replies leave in the order of the requests
// as Parlor promises, and a version's frame goes out to every observer before the change is answered.
const { Arguments, WireError, badRequest, errorFrame, requestId, resultFrame } = require('./wire');

const MAX_SUBSCRIPTIONS = 32;
/** `ws.send` options for frames already encoded to bytes: send them as text, as they are. */
const AS_TEXT = { binary: false };

class Session {
  constructor(socket, server) {
    this.socket = socket;
    this.server = server;
    this.user = undefined;
    /** The rooms this connection observes, by topic (the `sub` of their events). */
    this.subscriptions = new Map();
    /** The keepalive sweep's tick when the client was last heard (any message or pong). */
    this.heardAt = server.tick;
    this.pinged = false;
    /** A frame to send once the reply in hand has gone (the room as it is, after `observeRoom`). */
    this.afterReply = undefined;
  }

  /** The connection closed: it observes nothing any more. */
  closed() {
    for (const room of this.subscriptions.values()) room.observers.delete(this);
    this.server.subscriptionCount -= this.subscriptions.size;
    this.subscriptions.clear();
  }

  heard() {
    this.heardAt = this.server.tick;
    this.pinged = false;
  }

  sendEvent(frame) {
    this.socket.send(frame, AS_TEXT);
  }

  received(data, isBinary) {
    this.heard();
    if (isBinary) {
      this.socket.send(errorFrame('null', badRequest('Parlor speaks JSON in text frames, not binary.')));
      return;
    }
    let frame;
    try {
      frame = JSON.parse(data);
    } catch {
      this.socket.send(errorFrame('null', badRequest('The frame is not valid JSON.')));
      return;
    }
    if (frame === null || typeof frame !== 'object' || Array.isArray(frame)) {
      this.socket.send(errorFrame('null', badRequest('A request must be a JSON object.')));
      return;
    }
    const id = requestId(frame);
    if (id === undefined) {
      this.socket.send(errorFrame('null', badRequest('id must be an integer or a string.')));
      return;
    }
    try {
      if (this.server.shuttingDown) throw new WireError('SHUTTING_DOWN', 'The server is restarting; reconnect in a moment.');
      this.socket.send(resultFrame(id, this.run(frame.op, frame.args)));
      if (this.afterReply !== undefined) {
        this.sendEvent(this.afterReply);
        this.afterReply = undefined;
      }
    } catch (error) {
      if (!(error instanceof WireError)) throw error;
      this.socket.send(errorFrame(id, error));
    }
  }

  /** Runs one operation; returns its result as JSON text. */
  run(op, rawArgs) {
    if (typeof op !== 'string') throw badRequest(op === undefined ? 'op is missing.' : 'op must be a string.');
    const operation = OPERATIONS[op];
    if (operation === undefined) {
      const shown = [...op].length <= 40 ? op : [...op].slice(0, 40).join('') + '…';
      throw badRequest(`op "${shown}" is not a known operation.`);
    }
    const args = new Arguments(rawArgs);
    return operation.call(this, args);
  }

  signedIn() {
    if (this.user === undefined) throw new WireError('UNAUTHENTICATED', 'Sign in first: send hello (with your token to resume).');
    return this.user;
  }

  /** `{"currentUserId":…,"room":…}` around a room view already encoded. */
  seat(room) {
    return '{"currentUserId":' + JSON.stringify(this.user) + ',"room":' + room.viewJson + '}';
  }
}

/** Operations, by name: each reads its arguments (a bad one is BAD_REQUEST before anything else). */
const OPERATIONS = {
  hello(args) {
    const token = args.string('token', true);
    const identity = this.server.identity;
    let user;
    let resumed = false;
    const known = token === undefined ? undefined : identity.verify(token);
    if (known !== undefined) {
      user = known;
      resumed = true;
    } else if (token === undefined && this.user !== undefined) {
      user = this.user;
      resumed = true;
    } else {
      user = identity.newUser();
    }
    this.user = user;
    return JSON.stringify({ resumed, token: identity.issue(user), userId: user });
  },

  createRoom(args) {
    const settings = {
      pointLimit: args.integer('pointLimit'),
      pointValue: args.integer('pointValue'),
      playerCount: args.integer('playerCount'),
      playerName: args.string('playerName'),
    };
    const creator = this.signedIn();
    const room = this.server.rooms.create({ ...settings, creator, now: new Date() });
    return this.seat(room);
  },

  joinRoom(args) {
    const code = args.string('code');
    const playerName = args.string('playerName');
    this.signedIn();
    const room = this.server.rooms.find(code);
    if (room.join(this.user, playerName)) room.changed();
    return this.seat(room);
  },

  setReady(args) {
    const roomCode = args.string('roomCode');
    const playerId = args.userId('playerId');
    const ready = args.boolean('ready');
    this.signedIn();
    const room = this.server.rooms.find(roomCode);
    if (room.setReady(playerId, ready, this.user)) room.changed();
    return room.viewJson;
  },

  startGame(args) {
    const roomCode = args.string('roomCode', true);
    const lobbyId = args.string('lobbyId', true);
    if ((roomCode === undefined) === (lobbyId === undefined)) {
      throw badRequest('args must have exactly one of roomCode (rummy) or lobbyId (word lobby).');
    }
    if (lobbyId !== undefined) throw badRequest('Word lobbies are not part of this benchmark peer; it serves rummy rooms only.');
    this.signedIn();
    const room = this.server.rooms.find(roomCode);
    if (room.startGame(this.user)) room.changed();
    return room.viewJson;
  },

  submitScore(args) {
    const roomCode = args.string('roomCode');
    const playerId = args.userId('playerId');
    const round = args.integer('round');
    const score = args.integer('score');
    this.signedIn();
    const room = this.server.rooms.find(roomCode);
    if (room.submitScore(playerId, round, score, this.user)) room.changed();
    return room.viewJson;
  },

  /** Anyone may observe. The reply goes first, then the room as it is now. */
  observeRoom(args) {
    const room = this.server.rooms.find(args.string('code'));
    if (!this.subscriptions.has(room.topic)) {
      if (this.subscriptions.size >= MAX_SUBSCRIPTIONS) {
        throw new WireError('TOO_MANY_SUBSCRIPTIONS', `A connection can hold at most ${MAX_SUBSCRIPTIONS} subscriptions.`);
      }
      this.subscriptions.set(room.topic, room);
      this.server.subscriptionCount += 1;
      room.observers.add(this);
      this.afterReply = room.frame;
    }
    return '{"subscription":' + room.topic + '}';
  },

  /** Its `end` event goes out before the reply. */
  unsubscribe(args) {
    const topic = args.integer('subscription');
    const room = this.subscriptions.get(topic);
    if (room === undefined) {
      throw new WireError('SUBSCRIPTION_NOT_FOUND', `There is no subscription ${topic} on this connection.`);
    }
    room.observers.delete(this);
    this.subscriptions.delete(topic);
    this.server.subscriptionCount -= 1;
    this.socket.send('{"sub":' + topic + ',"event":"end"}');
    return 'null';
  },
};

module.exports = { Session };
