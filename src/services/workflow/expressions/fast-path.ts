// Plain property paths evaluated in TypeScript, without entering the sandbox.
//
// Most real expressions are paths like `$json.body.name`, `$json["x"][0]`,
// `$('Node').item.json.id` or `$node["Node"].json["a"]` (section 6 of the reference: $json in
// 75 % of workflows). Reading data needs no JavaScript engine, so these skip QuickJS.
// The rule that keeps this safe: a path is evaluated here only while every step reads an own
// property of plain JSON data (or an array's/string's length). Anything else (a missing key,
// which might be an extension method or a prototype member, a call, an operator) answers
// "not a plain path" and the expression goes to the sandbox, which decides.

import type { ExpressionData } from './api.js';
import { inputItem, legacyNodeItem, nodeItem } from './host-data.js';

type Root =
  | { kind: 'json' | 'binary' }
  | { kind: 'input'; pick: 'item' | 'first' | 'last' }
  | { kind: 'node'; name: string; pick: 'item' | 'first' | 'last' }
  | { kind: 'legacyNode'; name: string }
  | { kind: 'itemIndex' | 'runIndex' };

export interface PlainPath {
  root: Root;
  steps: Array<string | number>;
}

/** Marker for "evaluate this in the sandbox instead". */
export const NOT_PLAIN = Symbol('not a plain path');

const IDENT = /^[A-Za-z_$][\w$]*/;

class Scanner {
  pos = 0;
  constructor(readonly text: string) {}
  skipSpace(): void {
    while (this.pos < this.text.length && /\s/.test(this.text[this.pos])) this.pos++;
  }
  eat(literal: string): boolean {
    if (this.text.startsWith(literal, this.pos)) {
      this.pos += literal.length;
      return true;
    }
    return false;
  }
  ident(): string | undefined {
    const match = IDENT.exec(this.text.slice(this.pos));
    if (!match) return undefined;
    this.pos += match[0].length;
    return match[0];
  }
  /** A quoted string without escapes (escapes are rare in paths; the sandbox handles them). */
  quoted(): string | undefined {
    const quote = this.text[this.pos];
    if (quote !== '"' && quote !== "'") return undefined;
    const end = this.text.indexOf(quote, this.pos + 1);
    if (end === -1) return undefined;
    const value = this.text.slice(this.pos + 1, end);
    if (value.includes('\\') || value.includes('\n')) return undefined;
    this.pos = end + 1;
    return value;
  }
  index(): number | undefined {
    const match = /^(0|[1-9]\d{0,8})/.exec(this.text.slice(this.pos));
    if (!match) return undefined;
    this.pos += match[0].length;
    return Number(match[0]);
  }
  get done(): boolean {
    return this.pos >= this.text.length;
  }
}

/** Parses `code` as a plain path, or returns undefined. */
export function parsePlainPath(code: string): PlainPath | undefined {
  const s = new Scanner(code.trim());
  const root = parseRoot(s);
  if (!root) return undefined;
  const steps: Array<string | number> = [];
  while (!s.done) {
    if (s.eat('?.') || s.eat('.')) {
      const name = s.ident();
      if (!name) return undefined;
      steps.push(name);
    } else if (s.eat('[')) {
      s.skipSpace();
      const key = s.quoted() ?? s.index();
      if (key === undefined) return undefined;
      s.skipSpace();
      if (!s.eat(']')) return undefined;
      steps.push(key);
    } else {
      return undefined;
    }
  }
  if ((root.kind === 'itemIndex' || root.kind === 'runIndex') && steps.length > 0) return undefined;
  // Item roots must continue into the item's json/binary: other item members are engine detail.
  if (root.kind === 'input' || root.kind === 'node') {
    if (steps[0] !== 'json' && steps[0] !== 'binary') return undefined;
  }
  if (root.kind === 'legacyNode' && steps[0] !== 'json' && steps[0] !== 'binary') return undefined;
  return { root, steps };
}

function parsePick(s: Scanner): 'item' | 'first' | 'last' | undefined {
  if (!s.eat('.')) return undefined;
  const name = s.ident();
  if (name === 'item') return 'item';
  if ((name === 'first' || name === 'last') && s.eat('()')) return name;
  return undefined;
}

function parseRoot(s: Scanner): Root | undefined {
  const name = s.ident();
  switch (name) {
    case '$json':
      return { kind: 'json' };
    case '$binary':
      return { kind: 'binary' };
    case '$itemIndex':
      return { kind: 'itemIndex' };
    case '$runIndex':
      return { kind: 'runIndex' };
    case '$input': {
      const pick = parsePick(s);
      return pick ? { kind: 'input', pick } : undefined;
    }
    case '$': {
      if (!s.eat('(')) return undefined;
      s.skipSpace();
      const node = s.quoted();
      s.skipSpace();
      if (node === undefined || !s.eat(')')) return undefined;
      const pick = parsePick(s);
      return pick ? { kind: 'node', name: node, pick } : undefined;
    }
    case '$node': {
      let node: string | undefined;
      if (s.eat('[')) {
        s.skipSpace();
        node = s.quoted();
        s.skipSpace();
        if (!s.eat(']')) return undefined;
      } else if (s.eat('.')) {
        node = s.ident();
      }
      return node === undefined ? undefined : { kind: 'legacyNode', name: node };
    }
    default:
      return undefined;
  }
}

/** Evaluates a parsed path; returns NOT_PLAIN when the sandbox must decide. Throws ExpressionError. */
export function evaluatePlainPath(path: PlainPath, data: ExpressionData): unknown {
  let value: unknown;
  const { root } = path;
  switch (root.kind) {
    case 'json':
      value = inputItem(data, 'index')?.json;
      break;
    case 'binary':
      value = inputItem(data, 'index')?.binary;
      break;
    case 'itemIndex':
      return data.itemIndex;
    case 'runIndex':
      return data.runIndex;
    case 'input':
      value = inputItem(data, root.pick === 'item' ? 'index' : root.pick);
      break;
    case 'node':
      value = nodeItem(data, root.name, root.pick === 'item' ? 'paired' : root.pick);
      break;
    case 'legacyNode':
      value = legacyNodeItem(data, root.name);
      break;
  }
  for (const step of path.steps) {
    // The sandbox would throw a TypeError here, which n8n's interpolation turns into "no value".
    if (value === null || value === undefined) return undefined;
    if (typeof value === 'string') {
      if (step !== 'length') return NOT_PLAIN;
      value = value.length;
      continue;
    }
    if (typeof value !== 'object') return NOT_PLAIN;
    if (Array.isArray(value)) {
      if (step === 'length') value = value.length;
      else if (typeof step === 'number' && step < value.length) value = value[step];
      else return NOT_PLAIN;
      continue;
    }
    const key = String(step);
    if (!Object.prototype.hasOwnProperty.call(value, key)) return NOT_PLAIN;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}
