// What the guest's scripts find in scope that the language does not define: what the host
// (sandbox-pool.ts) and QuickJS provide, and the names guest-scripts.ts puts in scope when it
// wraps the extension files. For the type checker only (tsconfig.json here): nothing in this
// file is evaluated. The checker sees every guest file as one global scope, so a name one file
// declares at its top level is visible to the others; the wrappers in guest-scripts.ts are
// what really scopes them.

type Luxon = typeof import('luxon');
type HostValue = string | number | undefined;

/**
 * The one host function (sandbox/host-ops.ts, hostOperation): strings and numbers in; JSON
 * text, undefined, or '!' followed by the JSON of an error out ('elapsed' answers a number).
 * Defined on the global object before the first script; the prelude takes it and deletes it.
 */
interface HamletHost {
  (op: 'elapsed'): number;
  /** Buffer's base64, done by the host (sandbox-pool.ts): bytes cross as ArrayBuffer copies; an error as '!' and its JSON. */
  (op: 'base64ToBytes', text: string, encoding: string): ArrayBuffer | string;
  (op: 'bytesToBase64', bytes: ArrayBuffer, encoding: string): string;
  (op: string, ...args: HostValue[]): string | undefined;
}
declare var __hamletHost: HamletHost;

/** QuickJS's own error class (stack overflow, interrupted run); not a standard global. */
declare var InternalError: ErrorConstructor;

interface GuestExpressionError extends Error {
  description?: string;
}
interface GuestExpressionErrorConstructor {
  new (message: string, description?: string): GuestExpressionError;
  readonly prototype: GuestExpressionError;
}

/**
 * The prelude's API, `globalThis.__hamlet` until the host has taken a handle to it
 * (sandbox-pool.ts calls these by name; the extensions use a few of them).
 */
interface HamletApi {
  begin(itemIndex: number, runIndex: number, nowMs: number, timezone: string, mode: string): void;
  template(fn: (segment: (part: () => unknown) => unknown) => Array<string | { v: unknown }>, single: boolean): string;
  encode(value: unknown): string;
  call(fn: () => unknown): unknown;
  runTimer(): boolean;
  cleanGlobals(): boolean;
  logs(): string;
  setItems(kind: 'all' | 'item' | 'eachItem'): void;
  inputAt(index: number): unknown;
  inputAll(): unknown[];
  customData(): string;
  staticData(): string;
  ExpressionError: GuestExpressionErrorConstructor;
  codec(operation: string, text: string, option: string | undefined): string;
  lux(): Luxon;
  installLibrary(name: string, loader: (api: HamletApi) => unknown): void;
  registerExtension(name: string): void;
  isDateTime(value: unknown): boolean;
  isEmptyValue(value: unknown): boolean;
  finishBaseline(): void;
}
declare var __hamlet: HamletApi;

// In scope of the extension files (extensions/*.js): guest-scripts.ts wraps them in a function
// where `H` is the prelude's API, and the DateTime extensions in one that also takes `luxon`.
declare const H: HamletApi;
declare const luxon: Luxon;

// Extension methods the extension files themselves call (the rest are only called by users).
interface String {
  toDateTime(format?: string): import('luxon').DateTime;
}
