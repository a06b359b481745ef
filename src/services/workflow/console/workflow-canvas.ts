// A read-only drawing of an n8n workflow as SVG, the way n8n's editor lays it out: each node a
// 100×100 box with its top-left corner at its `position`, its name below; each connection a
// curve from an output port on the right of its source to an input port on the left of its
// target; sticky notes (`n8n-nodes-base.stickyNote`) as coloured rectangles of their own size
// with their text, behind everything. On an execution's page the nodes carry their run status
// and the connections the number of items they passed.
import { html, raw } from '../../../platform/console-layout.js';

export interface N8nNode {
  id?: string;
  name: string;
  type: string;
  position?: [number, number];
  parameters?: Record<string, unknown>;
  disabled?: boolean;
}

export type N8nConnections = Record<
  string,
  Record<string, Array<Array<{ node: string; type?: string; index?: number }> | null> | undefined>
>;

export interface N8nWorkflow {
  id?: string;
  name?: string;
  nodes?: N8nNode[];
  connections?: N8nConnections;
}

/** What a run did at a node, for an execution's canvas. */
export interface NodeRunSummary {
  status: string;
  /** Items per output index, summed over the node's runs. */
  outputCounts: number[];
}

const NODE = 100;
const LABEL = 34;
const PAD = 40;
const STICKY_TYPE = 'n8n-nodes-base.stickyNote';
/** n8n's sticky colours 1–7 (yellow, orange, red, green, blue, purple, grey). */
const STICKY_COLOURS = ['#fff5d6', '#fedcc3', '#fbd0d0', '#dcf2d6', '#d6e6fb', '#e9dcfb', '#f0f0f0'];

export const isSticky = (n: N8nNode) => n.type === STICKY_TYPE;
export const nodeAnchor = (name: string) => `node-${name.replace(/[^A-Za-z0-9_-]+/g, '-')}`;
const isTrigger = (n: N8nNode) =>
  /trigger$/i.test(n.type) || /\.webhook$/.test(n.type) || /\.(cron|start)$/.test(n.type);
const pos = (n: N8nNode): [number, number] =>
  Array.isArray(n.position) && n.position.length >= 2
    ? [Number(n.position[0]) || 0, Number(n.position[1]) || 0]
    : [0, 0];
const shortType = (type: string) => type.slice(type.lastIndexOf('.') + 1);

interface Geometry {
  node: N8nNode;
  x: number;
  y: number;
  inputs: number;
  outputs: number;
}

export function canvasSvg(wf: N8nWorkflow, runs?: Record<string, NodeRunSummary>): string {
  const all = Array.isArray(wf.nodes) ? wf.nodes : [];
  const stickies = all.filter(isSticky);
  const nodes = all.filter((n) => !isSticky(n));
  const connections = wf.connections ?? {};

  // Ports: as many outputs as the node's connection lists, as many inputs as its highest target index.
  const inputs = new Map<string, number>();
  for (const byType of Object.values(connections)) {
    for (const outputs of Object.values(byType ?? {})) {
      for (const targets of outputs ?? [])
        for (const t of targets ?? []) inputs.set(t.node, Math.max(inputs.get(t.node) ?? 1, (t.index ?? 0) + 1));
    }
  }
  const geo = new Map<string, Geometry>(
    nodes.map((n) => {
      const [x, y] = pos(n);
      const outputs = Math.max(1, ...Object.values(connections[n.name] ?? {}).map((o) => o?.length ?? 0));
      return [n.name, { node: n, x, y, inputs: isTrigger(n) ? 0 : (inputs.get(n.name) ?? 1), outputs }];
    }),
  );

  // The drawing's extent: nodes with their labels, and the stickies.
  const boxes = [
    ...nodes.map((n) => [...pos(n), NODE, NODE + LABEL] as const),
    ...stickies.map((s) => [...pos(s), stickySize(s).w, stickySize(s).h] as const),
  ];
  const minX = boxes.length ? Math.min(...boxes.map((b) => b[0])) - PAD : 0;
  const minY = boxes.length ? Math.min(...boxes.map((b) => b[1])) - PAD : 0;
  const width = boxes.length ? Math.max(...boxes.map((b) => b[0] + b[2])) + PAD - minX : 400;
  const height = boxes.length ? Math.max(...boxes.map((b) => b[1] + b[3])) + PAD - minY : 200;

  const portY = (g: Geometry, i: number, n: number) => g.y + (NODE * (i + 1)) / (n + 1);
  const paths: string[] = [];
  for (const [from, byType] of Object.entries(connections)) {
    const src = geo.get(from);
    if (!src) continue;
    for (const [type, outputs] of Object.entries(byType ?? {})) {
      (outputs ?? []).forEach((targets, out) => {
        for (const t of targets ?? []) {
          const dst = geo.get(t.node);
          if (!dst) continue;
          const sx = src.x + NODE;
          const sy = portY(src, out, src.outputs);
          const tx = dst.x;
          const ty = portY(dst, t.index ?? 0, Math.max(1, dst.inputs));
          const dx = Math.max(40, Math.abs(tx - sx) / 2);
          const count = runs?.[from]?.outputCounts[out];
          paths.push(
            html`<path class="connection${type === 'main' ? '' : ' sub'}" data-from="${from}" data-to="${t.node}" data-output="${out}" data-input="${t.index ?? 0}" d="M${sx} ${sy} C${sx + dx} ${sy} ${tx - dx} ${ty} ${tx} ${ty}"><title>${from} → ${t.node}</title></path>${
              count !== undefined
                ? raw(
                    html`<text class="count" x="${(sx + tx) / 2}" y="${(sy + ty) / 2 - 6}" text-anchor="middle">${count} item${count === 1 ? '' : 's'}</text>`,
                  )
                : ''
            }`,
          );
        }
      });
    }
  }

  const nodeEls = [...geo.values()].map((g) => {
    const n = g.node;
    const run = runs?.[n.name];
    const classes = [
      'node',
      isTrigger(n) ? 'trigger' : '',
      n.disabled ? 'disabled' : '',
      run ? `run-${run.status}` : '',
    ]
      .filter(Boolean)
      .join(' ');
    const ports = [
      ...Array.from(
        { length: g.inputs },
        (_, i) => html`<circle class="port in" cx="0" cy="${portY(g, i, g.inputs) - g.y}" r="5"/>`,
      ),
      ...Array.from(
        { length: g.outputs },
        (_, i) => html`<circle class="port out" cx="${NODE}" cy="${portY(g, i, g.outputs) - g.y}" r="5"/>`,
      ),
    ];
    const label = `${n.name} (${shortType(n.type)})${n.disabled ? ', disabled' : ''}${run ? `, ${run.status}` : ''}`;
    return html`<g class="${classes}" data-node="${n.name}" transform="translate(${g.x} ${g.y})"><a href="#${nodeAnchor(n.name)}" aria-label="${label}">
<rect class="box" width="${NODE}" height="${NODE}" rx="${isTrigger(n) ? 24 : 8}"/>${raw(ports.join(''))}
<text class="type" x="${NODE / 2}" y="${NODE / 2}" text-anchor="middle" dominant-baseline="middle">${clip(shortType(n.type), 14)}</text>
<text x="${NODE / 2}" y="${NODE + 18}" text-anchor="middle">${clip(n.name, 22)}</text></a></g>`;
  });

  const stickyEls = stickies.map((s) => {
    const [x, y] = pos(s);
    const { w, h } = stickySize(s);
    const lines = wrap(
      String(s.parameters?.content ?? ''),
      Math.max(8, Math.floor(w / 7)),
      Math.max(1, Math.floor((h - 16) / 16)),
    );
    return html`<g class="sticky" data-sticky="${s.name}" transform="translate(${x} ${y})"><rect width="${w}" height="${h}" rx="6" fill="${stickyColour(s.parameters?.color)}"/>
<text x="10" y="8">${lines.map((l, i) => raw(html`<tspan x="10" dy="${i === 0 ? 14 : 16}">${l}</tspan>`))}</text></g>`;
  });

  const title = `${wf.name ?? 'Workflow'}: ${nodes.length} node${nodes.length === 1 ? '' : 's'}, ${paths.length} connection${paths.length === 1 ? '' : 's'}, ${stickies.length} sticky note${stickies.length === 1 ? '' : 's'}`;
  return html`<div class="canvas-wrap"><svg class="canvas" xmlns="http://www.w3.org/2000/svg" viewBox="${minX} ${minY} ${width} ${height}" width="${width}" height="${height}" role="group" aria-label="${title}">
<title>${title}</title>
<g class="stickies">${raw(stickyEls.join(''))}</g>
<g class="connections">${raw(paths.join(''))}</g>
<g class="nodes">${raw(nodeEls.join(''))}</g>
</svg></div>`;
}

function stickySize(s: N8nNode): { w: number; h: number } {
  const w = Number(s.parameters?.width);
  const h = Number(s.parameters?.height);
  return { w: Number.isFinite(w) && w > 0 ? w : 240, h: Number.isFinite(h) && h > 0 ? h : 160 };
}

/** n8n stores a sticky's colour as 1–7 or, in newer versions, a #hex. */
function stickyColour(c: unknown): string {
  if (typeof c === 'string' && /^#[0-9a-f]{3,8}$/i.test(c)) return c;
  const i = Number(c);
  return STICKY_COLOURS[Number.isInteger(i) && i >= 1 && i <= 7 ? i - 1 : 0];
}

/** The sticky's markdown as plain lines that fit its width, cut to the lines its height holds. */
function wrap(markdown: string, perLine: number, maxLines: number): string[] {
  const plain = markdown.replace(/[#*_`>]+/g, '').replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
  const out: string[] = [];
  for (const para of plain.split('\n')) {
    let line = '';
    for (const word of para.split(/\s+/).filter(Boolean)) {
      if (line && line.length + 1 + word.length > perLine) {
        out.push(line);
        line = '';
      }
      line = line ? `${line} ${word}` : clip(word, perLine);
    }
    out.push(line);
  }
  while (out.length && !out[out.length - 1]) out.pop();
  return out.length > maxLines ? [...out.slice(0, maxLines - 1), `${out[maxLines - 1]} …`] : out;
}

const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);
