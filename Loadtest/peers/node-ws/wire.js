'use strict';
// Parlor's envelope as the benchmark peer writes and reads it (docs/PROTOCOL.md, "The envelope" and
// "Errors"): error codes with their statuses, argument reading with Parlor's sentences, and the reply
// frames. Keys are written in sorted order, as Parlor writes them, so both servers send the same bytes.

/** The codes this peer can answer with, and their canonical statuses. */
const STATUS = {
  BAD_REQUEST: 'invalid-argument',
  INVALID_INPUT: 'invalid-argument',
  INVALID_ROOM_CODE: 'invalid-argument',
  INVALID_STATE: 'failed-precondition',
  NOT_MODERATOR: 'permission-denied',
  NO_FREE_CODE: 'resource-exhausted',
  PLAYER_NOT_FOUND: 'not-found',
  ROOM_FULL: 'resource-exhausted',
  ROOM_NOT_FOUND: 'not-found',
  SHUTTING_DOWN: 'unavailable',
  SUBSCRIPTION_NOT_FOUND: 'not-found',
  TOO_MANY_SUBSCRIPTIONS: 'resource-exhausted',
  UNAUTHENTICATED: 'unauthenticated',
};

/** A refusal sent back as `{"id","error":{code,message,status}}`; the connection stays open. */
class WireError extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

function badRequest(message) {
  return new WireError('BAD_REQUEST', message);
}

/** Echoed input is cut short so a huge argument cannot bloat a reply (as Parlor's `clip`). */
function clip(text) {
  const characters = [...text];
  return characters.length <= 40 ? text : characters.slice(0, 40).join('') + '…';
}

/** The request's `id` as it goes back on the wire: an integer or a string, else a bad request. */
function requestId(frame) {
  const id = frame.id;
  if (id === undefined || id === null) return 'null';
  if (Number.isSafeInteger(id)) return String(id);
  if (typeof id === 'string' && id.length <= 256) return JSON.stringify(id);
  return undefined;
}

function resultFrame(id, resultJson) {
  return '{"id":' + id + ',"result":' + resultJson + '}';
}

function errorFrame(id, error) {
  return '{"id":' + id + ',"error":' + JSON.stringify({ code: error.code, message: error.message, status: STATUS[error.code] }) + '}';
}

/** Reads the fields of `args` a spec names, with the sentences Parlor's decoder gives. */
class Arguments {
  constructor(args) {
    if (args !== undefined && (args === null || typeof args !== 'object' || Array.isArray(args))) {
      throw badRequest('args must be an object.');
    }
    this.args = args;
  }

  value(name, optional) {
    if (this.args === undefined) {
      if (optional) return undefined;
      throw badRequest('args is missing.');
    }
    const value = this.args[name];
    if (value === undefined || (optional && value === null)) {
      if (optional) return undefined;
      throw badRequest(`args.${name} is missing.`);
    }
    if (value === null) throw badRequest(`args.${name} must not be null.`);
    return value;
  }

  string(name, optional = false) {
    const value = this.value(name, optional);
    if (value !== undefined && typeof value !== 'string') throw badRequest(`args.${name} must be a string.`);
    return value;
  }

  integer(name) {
    const value = this.value(name, false);
    if (!Number.isSafeInteger(value)) throw badRequest(`args.${name} must be an integer.`);
    return value;
  }

  boolean(name) {
    const value = this.value(name, false);
    if (typeof value !== 'boolean') throw badRequest(`args.${name} must be true or false.`);
    return value;
  }

  /** A user id: a UUID, read in lowercase as Parlor's `UserID` does. */
  userId(name) {
    const value = this.string(name);
    if (!/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/.test(value)) {
      throw badRequest(`args.${name} must be a UUID.`);
    }
    return value.toLowerCase();
  }
}

module.exports = { WireError, badRequest, clip, requestId, resultFrame, errorFrame, Arguments };
