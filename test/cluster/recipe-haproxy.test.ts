// The load balancer configuration `npm run cluster` writes: every Hamlet port has a frontend
// and a backend over every instance, HTTP is balanced per request with health checks and the
// answering instance named, SMTP goes through in TCP mode with an SMTP check, WebSockets get a
// long tunnel timeout. HAProxy itself checks the file where it is installed.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HAMLET_PORTS, haproxyConfig, SERVED_BY_HEADER, type PortMap } from '../../scripts/cluster/haproxy.js';
import { haproxyInstalled } from '../../scripts/cluster/infrastructure.js';

const ports = (offset: number) => Object.fromEntries(HAMLET_PORTS.map((p) => [p.name, p.standard + offset])) as PortMap;
const layout = {
  host: '127.0.0.1',
  front: ports(0),
  instances: [
    { name: 'hamlet-1', ports: ports(10) },
    { name: 'hamlet-2', ports: ports(20) },
  ],
};

/** The lines of one `frontend` or `backend` section. */
function section(config: string, header: string): string[] {
  const lines = config.split('\n');
  const start = lines.indexOf(header);
  expect(start, `section "${header}"`).toBeGreaterThanOrEqual(0);
  const end = lines.findIndex((l, i) => i > start && l === '');
  return lines.slice(start + 1, end).map((l) => l.trim());
}

describe('the cluster recipe HAProxy configuration', () => {
  const config = haproxyConfig(layout);

  it('has a frontend on the usual port and a backend over both instances for every Hamlet port', () => {
    for (const p of HAMLET_PORTS) {
      expect(section(config, `frontend ${p.name}`)).toContain(`bind 127.0.0.1:${p.standard}`);
      const backend = section(config, `backend ${p.name}_instances`);
      expect(backend).toContain('balance roundrobin');
      expect(backend.filter((l) => l.startsWith('server '))).toEqual([
        `server hamlet-1 127.0.0.1:${p.standard + 10} check inter 500ms fall 2 rise 1`,
        `server hamlet-2 127.0.0.1:${p.standard + 20} check inter 500ms fall 2 rise 1`,
      ]);
    }
  });

  it('checks HTTP instances on their readiness and names the one that answered; SMTP in TCP mode with an SMTP check', () => {
    const home = section(config, 'backend home_instances');
    expect(home).toEqual(
      expect.arrayContaining([
        'mode http',
        'option httpchk GET /healthz/readiness',
        `http-response set-header ${SERVED_BY_HEADER} %s`,
      ]),
    );
    expect(section(haproxyConfig({ ...layout, healthPath: '/healthz' }), 'backend blog_instances')).toContain(
      'option httpchk GET /healthz',
    );
    expect(section(config, 'frontend home')).toContain('option forwardfor');
    for (const name of ['smtp', 'submission']) {
      expect(section(config, `frontend ${name}`)).toContain('mode tcp');
      expect(section(config, `backend ${name}_instances`)).toEqual(
        expect.arrayContaining(['mode tcp', 'option smtpchk EHLO haproxy.local']),
      );
    }
    // Home's and mail's WebSockets are tunnels once upgraded: an hour of quiet before HAProxy cuts them.
    expect(section(config, 'defaults')).toContain('timeout tunnel 1h');
  });

  it.skipIf(!haproxyInstalled())('is a configuration HAProxy accepts', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'hamlet-haproxy-'));
    try {
      const file = path.join(dir, 'haproxy.cfg');
      writeFileSync(file, config);
      const check = spawnSync('haproxy', ['-c', '-f', file], { encoding: 'utf8' });
      expect(check.status, check.stdout + check.stderr).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
