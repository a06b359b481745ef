// The WebSocket route at /api/websocket (hajs with a trailing-slash base URL asks for
// "//api/websocket"); the protocol itself lives in ../websocket/. An address past its share
// of connections is refused at the upgrade (HTTP 429 in the home's envelope).
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import { HttpError } from '../../../platform/errors.js';
import type { App } from '../../../platform/http.js';
import { WsConnection, type ConnectionDeps } from '../websocket/connection.js';

export function registerWebSocketRoute(app: App, deps: ConnectionDeps): void {
  const budget = deps.platform.websockets;
  const admit = async (request: FastifyRequest) => {
    // Only an upgrade holds a connection; a plain GET here takes no slot.
    if (request.raw.headers.upgrade?.toLowerCase() !== 'websocket') return;
    const release = budget.claimAddress('home', request.ip);
    if (!release)
      throw new HttpError(
        429,
        `Too many WebSocket connections from your address (at most ${budget.limits.maxPerAddress})`,
      );
    // The upgraded socket is this one: its slot is held until it closes.
    request.raw.socket.once('close', release);
  };
  // A refused upgrade is answered over HTTP; then its socket must go, or it lingers.
  const dropRefused = async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.raw.headers.upgrade && reply.statusCode >= 400) request.raw.socket.destroy();
  };
  const onSocket = (socket: WebSocket) => void new WsConnection(socket, deps);
  // Hidden from /docs/json: OpenAPI cannot describe a WebSocket protocol, and @fastify/websocket
  // hides its routes anyway. The protocol is described in docs/home.md.
  const schema = { hide: true };
  for (const url of ['/api/websocket', '//api/websocket'])
    app.get(url, { websocket: true, preHandler: admit, onResponse: dropRefused, schema }, onSocket);
}
