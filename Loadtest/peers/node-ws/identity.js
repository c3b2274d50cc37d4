'use strict';
// Anonymous sign-in as Parlor does it (docs/PROTOCOL.md, "Identity"): a random lowercase UUID and a
// token `v1.<userId>.<issued seconds>.<HMAC-SHA256, base64url>` under a secret of this process (the
// peer keeps nothing, so its tokens are good until it stops).
const { createHmac, randomBytes, randomUUID, timingSafeEqual } = require('node:crypto');

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

class Identity {
  constructor() {
    this.secret = randomBytes(32);
  }

  newUser() {
    return randomUUID();
  }

  issue(user) {
    const body = `v1.${user}.${Math.floor(Date.now() / 1000)}`;
    return body + '.' + this.sign(body);
  }

  /** The user a token names, or undefined when it is not one this process signed. */
  verify(token) {
    if (token.length > 256) return undefined;
    const parts = token.split('.');
    if (parts.length !== 4 || parts[0] !== 'v1' || !/^[0-9]+$/.test(parts[2]) || !UUID.test(parts[1])) return undefined;
    const expected = Buffer.from(this.sign(parts.slice(0, 3).join('.')));
    const given = Buffer.from(parts[3]);
    return given.length === expected.length && timingSafeEqual(given, expected) ? parts[1] : undefined;
  }

  sign(body) {
    return createHmac('sha256', this.secret).update(body).digest('base64url');
  }
}

module.exports = { Identity };
