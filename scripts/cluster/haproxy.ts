// The HAProxy configuration of the local cluster: one frontend per Hamlet port, round robin
// over the API instances, health checks against each instance. Kept apart from the process
// handling so a test can read the configuration without starting anything.

/** Every port a Hamlet instance listens on, by the variable that sets it. */
export const HAMLET_PORTS = [
  { name: 'blog', variable: 'BLOG_PORT', standard: 4000, protocol: 'http' },
  { name: 'mail', variable: 'MAIL_PORT', standard: 4100, protocol: 'http' },
  { name: 'smtp', variable: 'SMTP_PORT', standard: 2525, protocol: 'smtp' },
  { name: 'submission', variable: 'MAIL_SUBMISSION_PORT', standard: 2587, protocol: 'smtp' },
  { name: 'community', variable: 'COMMUNITY_PORT', standard: 4200, protocol: 'http' },
  { name: 'home', variable: 'HOME_PORT', standard: 8123, protocol: 'http' },
  { name: 'workflow', variable: 'WORKFLOW_PORT', standard: 5678, protocol: 'http' },
  { name: 'console', variable: 'HAMLET_CONSOLE_PORT', standard: 4900, protocol: 'http' },
] as const;

export type PortName = (typeof HAMLET_PORTS)[number]['name'];
export type PortMap = Record<PortName, number>;

/** The response header naming the instance that answered (operators see where a request went; tests check the alternation). */
export const SERVED_BY_HEADER = 'x-hamlet-instance';

/**
 * What HAProxy asks an instance on every HTTP port. Readiness answers 503 while the instance
 * starts, drains for a shutdown or has lost its database, which is what a balancer needs to
 * know; `/healthz` only says the process answers, for builds without readiness.
 */
export const HEALTH_PATHS = { readiness: '/healthz/readiness', liveness: '/healthz' } as const;

export interface HaproxyLayout {
  host: string;
  /** Where the load balancer listens. */
  front: PortMap;
  /** The API instances, by the name HAProxy shows for them. */
  instances: Array<{ name: string; ports: PortMap }>;
  /** The health check's path on the HTTP ports (default: readiness). */
  healthPath?: string;
}

/**
 * The configuration text. HTTP ports are balanced per request (HAProxy keeps client keep-alive
 * but picks a server for every request), so a client's consecutive calls alternate between
 * instances; a WebSocket, once upgraded, is a tunnel that stays on its instance for as long as
 * `timeout tunnel` allows. SMTP is balanced per connection in TCP mode: a session must stay on
 * one instance, and HAProxy's `smtpchk` checks that the instance greets.
 */
export function haproxyConfig(layout: HaproxyLayout): string {
  const lines = [
    '# Written by scripts/cluster: the load balancer in front of the local Hamlet cluster.',
    'global',
    '  maxconn 8192',
    '',
    'defaults',
    '  timeout connect 3s',
    // An HTTP request has Hamlet's own limits behind it (HAMLET_HTTP_REQUEST_TIMEOUT 2m).
    '  timeout client 130s',
    '  timeout server 130s',
    // Home's /api/websocket and mail's WebSocket are long-lived and often quiet.
    '  timeout tunnel 1h',
    '  timeout client-fin 5s',
    // A request whose connection to a dead instance failed is sent to the other one.
    '  retries 2',
    '  option redispatch',
    '',
  ];
  for (const port of HAMLET_PORTS) {
    const smtp = port.protocol === 'smtp';
    lines.push(
      `frontend ${port.name}`,
      `  mode ${smtp ? 'tcp' : 'http'}`,
      `  bind ${layout.host}:${layout.front[port.name]}`,
      ...(smtp
        ? // An SMTP session may sit idle between commands up to MAIL_SMTP_IDLE_TIMEOUT (60 s).
          ['  timeout client 5m']
        : // Instances learn the client's address from X-Forwarded-For (HAMLET_TRUST_PROXY).
          ['  option forwardfor']),
      `  default_backend ${port.name}_instances`,
      '',
      `backend ${port.name}_instances`,
      `  mode ${smtp ? 'tcp' : 'http'}`,
      '  balance roundrobin',
      ...(smtp
        ? ['  timeout server 5m', `  option smtpchk EHLO haproxy.local`]
        : [
            `  option httpchk GET ${layout.healthPath ?? HEALTH_PATHS.readiness}`,
            '  http-check expect status 200',
            `  http-response set-header ${SERVED_BY_HEADER} %s`,
          ]),
      // Checked twice a second; two failures take an instance out, one success brings it back.
      ...layout.instances.map(
        (i) => `  server ${i.name} ${layout.host}:${i.ports[port.name]} check inter 500ms fall 2 rise 1`,
      ),
      '',
    );
  }
  return lines.join('\n');
}
