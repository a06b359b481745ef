// A loopback proxy in front of the home service that records what a real client sends: every
// REST request (method, path, status) and every WebSocket command (type) with whether Hamlet
// answered it successfully. A conformance test points the client at the proxy and then asks
// which commands it sent and which were refused, without reading the client's code.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import WebSocket, { WebSocketServer } from 'ws';

export interface RecordedCommand {
  type: string;
  /** The command as sent (without its access token, which only the auth message carries). */
  message: Record<string, unknown>;
  /** Set once Hamlet answered: the result's success and, for a refusal, its error code. */
  success?: boolean;
  error?: { code: string; message: string };
}

export interface RecordedRequest {
  method: string;
  path: string;
  status: number;
}

export interface RecordingProxy {
  url: string;
  commands: RecordedCommand[];
  requests: RecordedRequest[];
  close(): Promise<void>;
}

export async function startRecordingProxy(upstream: string): Promise<RecordingProxy> {
  const commands: RecordedCommand[] = [];
  const requests: RecordedRequest[] = [];
  const target = new URL(upstream);

  const server = http.createServer((req, res) => {
    const forward = http.request(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: target.host },
      },
      (up) => {
        requests.push({ method: req.method ?? 'GET', path: req.url ?? '/', status: up.statusCode ?? 0 });
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });

  const wss = new WebSocketServer({ noServer: true });
  server.on('upgrade', (req, socket, head) => {
    wss.handleUpgrade(req, socket, head, (client) => relay(client, req.url ?? '/'));
  });

  function relay(client: WebSocket, path: string) {
    const up = new WebSocket(`${target.origin.replace(/^http/, 'ws')}${path}`);
    const pending: WebSocket.RawData[] = [];
    const byId = new Map<number, RecordedCommand>();
    up.on('open', () => {
      for (const d of pending.splice(0)) up.send(d.toString());
    });
    client.on('message', (data) => {
      for (const m of unpack(data)) {
        if (typeof m.type !== 'string' || m.type === 'auth') continue;
        const c: RecordedCommand = { type: m.type, message: m };
        commands.push(c);
        if (typeof m.id === 'number') byId.set(m.id, c);
      }
      if (up.readyState === WebSocket.OPEN) up.send(data.toString());
      else pending.push(data);
    });
    up.on('message', (data) => {
      for (const m of unpack(data)) {
        const c = typeof m.id === 'number' && m.type === 'result' ? byId.get(m.id) : undefined;
        if (c) Object.assign(c, { success: m.success === true, error: m.error as RecordedCommand['error'] });
        else if (typeof m.id === 'number' && m.type === 'pong') {
          const p = byId.get(m.id);
          if (p) p.success = true;
        }
      }
      if (client.readyState === WebSocket.OPEN) client.send(data.toString());
    });
    const closeBoth = () => {
      client.close();
      up.close();
    };
    client.on('close', closeBoth);
    up.on('close', closeBoth);
    client.on('error', closeBoth);
    up.on('error', closeBoth);
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    commands,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const c of wss.clients) c.terminate();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function unpack(data: WebSocket.RawData): Array<Record<string, unknown>> {
  try {
    const parsed = JSON.parse(data.toString()) as unknown;
    return (Array.isArray(parsed) ? parsed : [parsed]).filter(
      (m): m is Record<string, unknown> => typeof m === 'object' && m !== null,
    );
  } catch {
    return [];
  }
}
