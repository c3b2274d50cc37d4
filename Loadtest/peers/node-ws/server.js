'use strict';
// A benchmark peer, not a product: Parlor's rummy-room protocol (the part `parlor-load rooms` and
// `parlor-load idle` use) on Node.js and the `ws` library, the stack Colyseus and Socket.IO run on,
// with rooms in memory and each version encoded once. Loadtest/peers/README.md says what it serves
// and how to compare it with parlor-server.
//
//   NODE_PATH=/usr/share/nodejs node Loadtest/peers/node-ws/server.js [--host 127.0.0.1] [--port 0]
//
// Prints `listening on HOST:PORT` once it accepts connections (port 0: a free one), serves WebSocket
// on /ws and GET /metrics (the gauges parlor-load reads); SIGTERM or SIGINT close every connection
// with 1001 and stop it.
const http = require('node:http');
const { WebSocketServer } = require('ws');
const { Identity } = require('./identity');
const { Rooms } = require('./room');
const { Session } = require('./session');

const USAGE = 'usage: server.js [--host 127.0.0.1] [--port 0] [--max-rooms 100000]';

function parseOptions(argv) {
  const options = { host: '127.0.0.1', port: 0, maxRooms: 100000 };
  for (let index = 0; index < argv.length; index += 2) {
    const [flag, value] = [argv[index], argv[index + 1]];
    if (flag === '--help' || flag === '-h') {
      console.log(USAGE);
      process.exit(0);
    }
    if (value === undefined) fail(`${flag} needs a value`);
    if (flag === '--host') options.host = value;
    else if (flag === '--port' && /^[0-9]+$/.test(value) && Number(value) <= 65535) options.port = Number(value);
    else if (flag === '--max-rooms' && /^[1-9][0-9]*$/.test(value)) options.maxRooms = Number(value);
    else fail(`unknown flag or bad value: ${flag} ${value}`);
  }
  return options;
}

function fail(problem) {
  process.stderr.write(`server.js: ${problem}\n${USAGE}\n`);
  process.exit(2);
}

// Keepalive as Parlor's defaults: ping a connection not heard from for 30 s, drop one silent for 75 s.
// One sweep every 5 s over all connections; a connection only records the sweep's tick when heard.
const SWEEP_MS = 5000;
const PING_AFTER_TICKS = 30000 / SWEEP_MS;
const DROP_AFTER_TICKS = 75000 / SWEEP_MS;

class PeerServer {
  constructor(options) {
    this.identity = new Identity();
    this.rooms = new Rooms(options.maxRooms);
    this.sessions = new Set();
    this.subscriptionCount = 0;
    this.tick = 0;
    this.shuttingDown = false;
    // Messages are at most 64 KiB (larger ones close with 1009), as Parlor's default. Compression is
    // negotiated only when the client offers it, with Parlor's settings.
    this.webSockets = new WebSocketServer({
      noServer: true,
      clientTracking: false,
      maxPayload: 64 * 1024,
      perMessageDeflate: { threshold: 128, serverNoContextTakeover: true },
    });
    this.http = http.createServer((request, response) => this.serveHTTP(request, response));
    this.http.on('upgrade', (request, socket, head) => this.upgrade(request, socket, head));
    this.sweeper = setInterval(() => this.sweep(), SWEEP_MS);
    this.sweeper.unref();
  }

  listen(host, port) {
    this.http.listen({ host, port, backlog: 4096 }, () => {
      const address = this.http.address();
      process.stdout.write(`listening on ${address.address}:${address.port}\n`);
    });
  }

  upgrade(request, socket, head) {
    if (request.url.split('?')[0] !== '/ws' || this.shuttingDown) {
      socket.end('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
      return;
    }
    this.webSockets.handleUpgrade(request, socket, head, (webSocket) => this.connected(webSocket));
  }

  connected(webSocket) {
    const session = new Session(webSocket, this);
    this.sessions.add(session);
    webSocket.on('message', (data, isBinary) => session.received(data, isBinary));
    webSocket.on('pong', () => session.heard());
    webSocket.on('error', () => webSocket.terminate());
    webSocket.on('close', () => {
      this.sessions.delete(session);
      session.closed();
      if (this.shuttingDown && this.sessions.size === 0) process.exit(0);
    });
  }

  sweep() {
    this.tick += 1;
    for (const session of this.sessions) {
      const silent = this.tick - session.heardAt;
      if (silent >= DROP_AFTER_TICKS) {
        session.socket.terminate();
      } else if (silent >= PING_AFTER_TICKS && !session.pinged) {
        session.pinged = true;
        session.socket.ping();
      }
    }
  }

  serveHTTP(request, response) {
    const path = request.url.split('?')[0];
    if (request.method === 'GET' && path === '/metrics') {
      const body =
        `parlor_connections ${this.sessions.size}\n` +
        `parlor_subscriptions ${this.subscriptionCount}\n` +
        `parlor_rooms ${this.rooms.size}\n`;
      response.writeHead(200, { 'Content-Type': 'text/plain; version=0.0.4', 'Content-Length': Buffer.byteLength(body) });
      response.end(body);
    } else if (request.method === 'GET' && path === '/healthz') {
      response.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': 2 });
      response.end('ok');
    } else {
      response.writeHead(404, { 'Content-Length': 0 });
      response.end();
    }
  }

  /** Stops accepting, closes every connection with 1001, and exits once they are gone (at most 3 s). */
  shutDown() {
    if (this.shuttingDown) return;
    this.shuttingDown = true;
    this.http.close();
    if (this.sessions.size === 0) process.exit(0);
    for (const session of this.sessions) session.socket.close(1001, 'server shutting down');
    setTimeout(() => process.exit(0), 3000).unref();
  }
}

const options = parseOptions(process.argv.slice(2));
const server = new PeerServer(options);
process.on('SIGTERM', () => server.shutDown());
process.on('SIGINT', () => server.shutDown());
server.listen(options.host, options.port);
