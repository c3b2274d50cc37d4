'use strict';
// A rummy room in memory: the rules of the operations the generator uses (seats, moderator, ready,
// start, scores; Sources/ParlorRules/Rummy/RummyRoom+Apply.swift), its public view and its observers.
//
// Each version is encoded once: the view becomes one JSON string, and the event frame built from it
// becomes one Buffer that every observer's connection is handed unchanged. The frame's `sub` is the
// room's topic number, the same for every observer, exactly as Parlor's feeds do.
const { randomInt } = require('node:crypto');
const { WireError, clip } = require('./wire');

const RULES = {
  pointLimits: [100, 350],
  pointValues: [1, 1000000],
  playerCounts: [2, 10],
  roundCount: 6,
  maxRoundScore: 1000,
  nameMaxCharacters: 50,
  minPlayersToStart: 2,
};

const CODE_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const CODE_LENGTH = 6;

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
/** Control characters, line and paragraph separators, bidirectional overrides (DisplayName.swift). */
const FORBIDDEN_IN_NAMES = /[\p{Cc}\p{Zl}\p{Zp}\u202A-\u202E\u2066-\u2069]/u;

/** A code as a person typed it: trimmed and uppercased, then checked (INVALID_ROOM_CODE). */
function parseCode(input) {
  const code = input.trim().toUpperCase();
  const characters = [...code];
  if (characters.length !== CODE_LENGTH) {
    throw new WireError('INVALID_ROOM_CODE', `Room code must be exactly ${CODE_LENGTH} characters (got ${characters.length}).`);
  }
  const bad = characters.find((character) => !CODE_ALPHABET.includes(character));
  if (bad !== undefined) {
    const shown = /\p{Cc}/u.test(bad) ? 'a control character' : `"${bad}"`;
    throw new WireError('INVALID_ROOM_CODE', `Room code contains ${shown}; only the characters of the code alphabet are allowed.`);
  }
  return code;
}

function checkRange(value, [low, high], field) {
  if (value < low || value > high) {
    throw new WireError('INVALID_INPUT', `${field} must be between ${low} and ${high} (got ${value}).`);
  }
}

function validName(raw) {
  const name = raw.trim();
  if (name === '') throw new WireError('INVALID_INPUT', 'playerName must not be empty.');
  if (FORBIDDEN_IN_NAMES.test(name)) {
    throw new WireError('INVALID_INPUT', 'playerName must not contain control or formatting characters.');
  }
  let count = 0;
  for (const _ of graphemes.segment(name)) count += 1;
  if (count > RULES.nameMaxCharacters) {
    throw new WireError('INVALID_INPUT', `playerName must be at most ${RULES.nameMaxCharacters} characters (got ${count}).`);
  }
  return name;
}

class Room {
  /** A new room, version 1, with `creator` in the first seat as moderator and ready. */
  constructor({ code, topic, pointLimit, pointValue, playerCount, creator, playerName, now }) {
    checkRange(pointLimit, RULES.pointLimits, 'pointLimit');
    checkRange(pointValue, RULES.pointValues, 'pointValue');
    checkRange(playerCount, RULES.playerCounts, 'playerCount');
    this.id = code;
    this.topic = topic;
    this.pointLimit = pointLimit;
    this.pointValue = pointValue;
    this.playerCount = playerCount;
    this.currentRound = 1;
    this.isStarted = false;
    this.isFinished = false;
    this.players = [{ id: creator, name: validName(playerName), isReady: true, isModerator: true, scores: [] }];
    this.createdAt = now.toISOString();
    this.createdBy = creator;
    this.version = 1;
    /** Sessions observing this room. */
    this.observers = new Set();
    this.encode();
  }

  seat(playerId) {
    const index = this.players.findIndex((player) => player.id === playerId);
    if (index < 0) throw new WireError('PLAYER_NOT_FOUND', `Player ${clip(playerId)} is not in this room.`);
    return index;
  }

  isModerator(user) {
    return this.players.some((player) => player.id === user && player.isModerator);
  }

  // The rules. Each checks everything before changing anything and returns whether the room changed;
  // `changed` then moves the version on by one and publishes it.

  join(caller, playerName) {
    if (this.players.some((player) => player.id === caller)) return false;
    if (this.isStarted) {
      throw new WireError('INVALID_STATE', `Room ${this.id} has already started; new players can no longer join.`);
    }
    if (this.players.length >= this.playerCount) {
      throw new WireError('ROOM_FULL', `Room ${this.id} is full (${this.playerCount} of ${this.playerCount} seats).`);
    }
    this.players.push({ id: caller, name: validName(playerName), isReady: false, isModerator: false, scores: [] });
    return true;
  }

  setReady(playerId, ready, caller) {
    const index = this.seat(playerId);
    if (playerId !== caller && !this.isModerator(caller)) {
      throw new WireError('NOT_MODERATOR', "Only the moderator can change another player's ready state.");
    }
    if (this.isStarted) throw new WireError('INVALID_STATE', 'The game has already started; ready states are locked.');
    const player = this.players[index];
    if (player.isModerator && !ready) throw new WireError('INVALID_STATE', 'The moderator is always ready.');
    if (player.isReady === ready) return false;
    player.isReady = ready;
    return true;
  }

  startGame(caller) {
    if (!this.isModerator(caller)) throw new WireError('NOT_MODERATOR', 'Only the moderator can start the game.');
    if (this.isStarted) throw new WireError('INVALID_STATE', 'The game has already started.');
    if (this.players.length < RULES.minPlayersToStart) {
      throw new WireError(
        'INVALID_STATE',
        `At least ${RULES.minPlayersToStart} players are needed to start (the room has ${this.players.length}).`);
    }
    const waitingFor = this.players.filter((player) => !player.isReady).map((player) => player.name);
    if (waitingFor.length > 0) {
      throw new WireError('INVALID_STATE', `Not all players are ready; waiting for ${waitingFor.join(', ')}.`);
    }
    this.isStarted = true;
    for (const player of this.players) player.scores = new Array(RULES.roundCount).fill(0);
    return true;
  }

  submitScore(playerId, round, score, caller) {
    if (!this.isStarted) throw new WireError('INVALID_STATE', 'The game has not started yet; scores open at the start.');
    if (this.isFinished) throw new WireError('INVALID_STATE', 'The game is over; scores can no longer change.');
    const index = this.seat(playerId);
    if (playerId !== caller && !this.isModerator(caller)) {
      throw new WireError('NOT_MODERATOR', "Only the moderator can enter another player's score.");
    }
    if (round < 1 || round > this.currentRound) {
      throw new WireError('INVALID_INPUT', `round must be between 1 and ${this.currentRound} (got ${round}).`);
    }
    if (score < 0 || score > RULES.maxRoundScore) {
      throw new WireError('INVALID_INPUT', `score must be between 0 and ${RULES.maxRoundScore} (got ${score}).`);
    }
    const scores = this.players[index].scores;
    if (scores[round - 1] === score) return false;
    scores[round - 1] = score;
    return true;
  }

  // Versions and their frames.

  /** After a change: the next version, encoded once and written to every observer. */
  changed() {
    this.version += 1;
    this.encode();
    for (const session of this.observers) session.sendEvent(this.frame);
  }

  /**
   * Encodes the current version: `viewJson` (replies splice it in) and `frame`, the `room` event every
   * observer is sent. Keys in sorted order, as Parlor writes them.
   */
  encode() {
    this.viewJson = JSON.stringify({
      createdAt: this.createdAt,
      createdBy: this.createdBy,
      currentRound: this.currentRound,
      id: this.id,
      isFinished: this.isFinished,
      isStarted: this.isStarted,
      playerCount: this.playerCount,
      players: this.players.map((player) => ({
        id: player.id,
        isModerator: player.isModerator,
        isReady: player.isReady,
        name: player.name,
        scores: player.scores,
        totalScore: player.scores.reduce((sum, score) => sum + score, 0),
      })),
      pointLimit: this.pointLimit,
      pointValue: this.pointValue,
      version: this.version,
    });
    this.frame = Buffer.from('{"sub":' + this.topic + ',"event":"room","data":' + this.viewJson + '}');
  }
}

/** Every room of the server, by code, and the codes and topic numbers they get. */
class Rooms {
  constructor(maxRooms) {
    this.maxRooms = maxRooms;
    this.byCode = new Map();
    this.lastTopic = 0;
  }

  get size() {
    return this.byCode.size;
  }

  create(settings) {
    if (this.byCode.size >= this.maxRooms) {
      throw new WireError('NO_FREE_CODE', 'No free code could be found; try again.');
    }
    const code = this.freeCode();
    const room = new Room({ ...settings, code, topic: this.lastTopic + 1 });
    this.lastTopic += 1;
    this.byCode.set(code, room);
    return room;
  }

  /** The room a code names: INVALID_ROOM_CODE for a malformed one, ROOM_NOT_FOUND for an unknown one. */
  find(input) {
    const code = parseCode(input);
    const room = this.byCode.get(code);
    if (room === undefined) throw new WireError('ROOM_NOT_FOUND', `Room ${code} was not found.`);
    return room;
  }

  freeCode() {
    for (let attempt = 0; attempt < 64; attempt += 1) {
      let code = '';
      for (let index = 0; index < CODE_LENGTH; index += 1) code += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
      if (!this.byCode.has(code)) return code;
    }
    throw new WireError('NO_FREE_CODE', 'No free code could be found; try again.');
  }
}

module.exports = { Rooms };
