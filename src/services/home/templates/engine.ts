// Renders Home Assistant templates (Jinja2 syntax) with @huggingface/jinja's interpreter.
//
// Templates are user input run synchronously in the server's process, so each render is bounded:
// - steps: every node the interpreter evaluates counts; past `maxSteps` the render stops. A loop
//   cannot run away, because each iteration evaluates at least one node (Jinja has no while).
// - time: the wall clock is checked every 64 steps; past `maxMs` the render stops (a step can
//   do at most `maxItems` of native work, e.g. a filter over a list).
// - size: every string a step produces (the output included) is at most `maxOutput` characters,
//   every list at most `maxItems` items, and range() refuses to build more; so memory is bounded.
// - regular expressions: see regex.ts (no nested quantifiers, capped subjects).
// The interpreter evaluates its own value wrappers, never JS objects: no template can reach
// `constructor`, prototypes or Node's globals (a test tries the known escapes).
import { Environment, Interpreter, parse, tokenize } from '@huggingface/jinja';
import { boundedReplace, FUNCTIONS, type RenderScope } from './functions.js';
import { dateArithmetic } from './datetime.js';
import {
  bool,
  FunctionValue,
  isList,
  num,
  TemplateLimitError,
  isNone,
  isStr,
  isUndef,
  iterate,
  type Kwargs,
  list,
  pyStr,
  type RV,
  str,
  TemplateTypeError,
  toJs,
  typeName,
  undef,
} from './runtime.js';
import { newRenderInfo, type RenderInfo, StatesNamespace, toTemplateValue } from './states.js';
import type { TemplateWorld } from './world.js';

export interface TemplateLimits {
  maxSteps: number;
  maxMs: number;
  maxOutput: number;
  maxItems: number;
}

export const DEFAULT_LIMITS: TemplateLimits = {
  maxSteps: 250_000,
  maxMs: 250,
  maxOutput: 256 * 1024,
  maxItems: 10_000,
};

/** A template that does not compile or render. Its message is HA's: "<ErrorType>: <detail>". */
export class TemplateError extends Error {
  override name = 'TemplateError';
  /** What the failed render had looked at before it failed (a tracker re-renders on those). */
  info?: RenderInfo;
}

class UndefinedError extends Error {
  override name = 'UndefinedError';
}

type Node = { type: string; [k: string]: any };
type Program = ReturnType<typeof parse>;

const programs = new Map<string, Program>();
const MAX_CACHED = 2000;

/** Parses a template (cached by its text); throws a TemplateError for bad syntax. */
export function compileTemplate(source: string): Program {
  let p = programs.get(source);
  if (p) return p;
  try {
    p = parse(tokenize(source, { lstrip_blocks: false, trim_blocks: false }));
  } catch (err) {
    throw new TemplateError(`TemplateSyntaxError: ${(err as Error).message}`);
  }
  if (programs.size >= MAX_CACHED) programs.delete(programs.keys().next().value!);
  programs.set(source, p);
  return p;
}

/** True when a text holds template syntax (HA: is_template_string). */
export const isTemplate = (text: string): boolean => text.includes('{{') || text.includes('{%') || text.includes('{#');

export interface Rendered {
  text: string;
  info: RenderInfo;
}

// A node standing for an already evaluated value: lets the interpreter's own operators,
// member access and calls run on operands this module evaluated once.
const VALUE = '__hamlet_value__';
const valueNode = (value: RV): Node => ({ type: VALUE, value });

/** Statements whose value is not output. */
const SILENT = new Set(['Set', 'Macro', 'Comment', 'Break', 'Continue']);

type Internals = {
  evaluate(node: Node | undefined, env: Environment): RV;
  evaluateBlock(statements: Node[], env: Environment): RV;
  evaluateArguments(args: Node[], env: Environment): [RV[], Kwargs];
  applyFilter(operand: RV, filter: Node, env: Environment): RV;
  evaluateMemberExpression(node: Node, env: Environment): RV;
  evaluateCallExpression(node: Node, env: Environment): RV;
  evaluateBinaryExpression(node: Node, env: Environment): RV;
  run(program: Program): RV;
};
const base = Interpreter.prototype as unknown as Internals;

/** A dotted name for an expression, for "'x.y' is undefined". */
function describe(node: Node): string {
  if (node.type === 'Identifier') return node.value;
  if (node.type === 'MemberExpression' && !node.computed) return `${describe(node.object)}.${node.property.value}`;
  return 'value';
}

function sameValue(a: RV, b: RV): boolean {
  if (a.type === 'IntegerValue' || a.type === 'FloatValue' || a.type === 'StringValue' || a.type === 'BooleanValue')
    return a.value === b.value;
  if (isNone(a) || isUndef(a)) return a.type === b.type;
  return JSON.stringify(toJs(a)) === JSON.stringify(toJs(b));
}

export function renderTemplate(
  source: string,
  world: TemplateWorld,
  variables: Record<string, unknown> = {},
  limits: TemplateLimits = DEFAULT_LIMITS,
): Rendered {
  const program = compileTemplate(source);
  const info = newRenderInfo();
  const statesNs = new StatesNamespace(world, info);
  // The render's own scope under the shared globals (HA's functions, true/false/none).
  const env = new Environment(globals);
  const interp = new Interpreter(env) as unknown as Internals;

  let steps = 0;
  const deadline = performance.now() + limits.maxMs;
  const overLimit = (what: string) => new TemplateLimitError(`template stopped: ${what}`);

  const testFns: Record<string, (v: RV) => boolean> = { string: isStr, list: isList };
  const applyTest = (name: string, value: RV, args: RV[]): boolean => {
    const mine = FUNCTIONS[name];
    if (mine?.test) return mine.impl([value, ...args], new Map(), scope).__bool__().value;
    if (testFns[name]) return testFns[name](value);
    const t = env.tests.get(name);
    if (!t) throw new TemplateError(`TemplateAssertionError: No test named '${name}'.`);
    return t(value, ...args);
  };
  const applyFilter = (name: string, value: RV, args: RV[], kwargs: Kwargs): RV => {
    const mine = FUNCTIONS[name];
    if (mine?.filter) return mine.impl([value, ...args], kwargs, scope);
    const operand = (value as { iterableItems?: boolean }).iterableItems ? list(iterate(value)) : value;
    const argNodes = [
      ...args.map(valueNode),
      ...[...kwargs].map(([k, v]) => ({
        type: 'KeywordArgumentExpression',
        key: { type: 'Identifier', value: k },
        value: valueNode(v),
      })),
    ];
    const filterNode = argNodes.length
      ? { type: 'CallExpression', callee: { type: 'Identifier', value: name }, args: argNodes }
      : { type: 'Identifier', value: name };
    try {
      return base.applyFilter.call(interp, operand, filterNode, env);
    } catch (err) {
      if (/^Unknown (\w+ )?filter/.test((err as Error).message))
        throw new TemplateError(`TemplateAssertionError: No filter named '${name}'.`);
      throw err;
    }
  };
  const scope: RenderScope = {
    world,
    info,
    states: statesNs,
    source,
    maxItems: limits.maxItems,
    applyTest,
    applyFilter,
  };

  env.variables.set('states', statesNs);
  for (const [k, v] of Object.entries(variables)) env.variables.set(k, toTemplateValue(v));

  const check = (v: RV): RV => {
    if (isStr(v) && (v.value as string).length > limits.maxOutput)
      throw overLimit(`a text longer than ${limits.maxOutput} characters`);
    if (isList(v) && (v.value as RV[]).length > limits.maxItems)
      throw overLimit(`a list longer than ${limits.maxItems} items`);
    return v;
  };

  interp.evaluate = (node, e) => {
    if (!node) return undef();
    if (node.type === VALUE) return node.value as RV;
    if (++steps > limits.maxSteps) throw overLimit(`more than ${limits.maxSteps} steps`);
    if ((steps & 63) === 0 && performance.now() > deadline) throw overLimit(`ran longer than ${limits.maxMs} ms`);
    switch (node.type) {
      // Literals are made once per parsed template and shared (template values cannot change).
      case 'StringLiteral':
        return (node.cached ??= check(str(node.value)));
      case 'IntegerLiteral':
        return (node.cached ??= num(node.value, false));
      case 'FloatLiteral':
        return (node.cached ??= num(node.value, true));
      case 'MemberExpression': {
        const object = interp.evaluate(node.object, e);
        if (isUndef(object)) throw new UndefinedError(`'${describe(node.object)}' is undefined`);
        if (isNone(object))
          throw new UndefinedError(`'None' has no attribute '${node.computed ? '[…]' : node.property.value}'`);
        return check(base.evaluateMemberExpression.call(interp, { ...node, object: valueNode(object) }, e));
      }
      case 'CallExpression': {
        // 'text'.replace(old, new): bounded like the replace filter (a replacement can multiply a text).
        if (
          node.callee.type === 'MemberExpression' &&
          !node.callee.computed &&
          node.callee.property.value === 'replace'
        ) {
          const object = interp.evaluate(node.callee.object, e);
          if (isStr(object)) {
            const [args] = interp.evaluateArguments(node.args, e);
            return str(
              boundedReplace(object.value as string, pyStr(args[0] ?? undef()), pyStr(args[1] ?? undef()), args[2]),
            );
          }
          return check(
            base.evaluateCallExpression.call(
              interp,
              { ...node, callee: { ...node.callee, object: valueNode(object) } },
              e,
            ),
          );
        }
        const fn = interp.evaluate(node.callee, e);
        if (fn instanceof StatesNamespace) return fn.call(interp.evaluateArguments(node.args, e)[0]);
        if (fn.type !== 'FunctionValue') throw new TemplateTypeError(`'${typeName(fn)}' object is not callable`);
        return check(base.evaluateCallExpression.call(interp, { ...node, callee: valueNode(fn) }, e));
      }
      case 'FilterExpression': {
        const operand = interp.evaluate(node.operand, e);
        const f = node.filter as Node;
        const name = f.type === 'Identifier' ? (f.value as string) : (f.callee.value as string);
        const [args, kwargs] =
          f.type === 'CallExpression' ? interp.evaluateArguments(f.args, e) : [[], new Map<string, RV>()];
        return check(applyFilter(name, operand, args, kwargs));
      }
      case 'TestExpression': {
        const operand = interp.evaluate(node.operand, e);
        const r = applyTest(node.test.value, operand, []);
        return bool(node.negate ? !r : r);
      }
      case 'BinaryExpression': {
        const op = node.operator.value as string;
        if (op === 'and' || op === 'or') return base.evaluateBinaryExpression.call(interp, node, e);
        const left = interp.evaluate(node.left, e);
        const right = interp.evaluate(node.right, e);
        const dated = dateArithmetic(op, left, right);
        if (dated) return dated;
        if (op === '==' || op === '!=') return bool(sameValue(left, right) === (op === '=='));
        if ((op === 'in' || op === 'not in') && (right as { iterableItems?: boolean }).iterableItems) {
          const found = iterate(right).some(
            (x) => (x as { state?: { entity_id: string } }).state?.entity_id === left.value || x.value === left.value,
          );
          return bool(found === (op === 'in'));
        }
        if (op === '*' && isStr(left) && right.type === 'IntegerValue') {
          if ((left.value as string).length * Math.max(0, right.value as number) > limits.maxOutput)
            throw overLimit(`a text longer than ${limits.maxOutput} characters`);
          return str((left.value as string).repeat(Math.max(0, right.value as number)));
        }
        return check(
          base.evaluateBinaryExpression.call(interp, { ...node, left: valueNode(left), right: valueNode(right) }, e),
        );
      }
      default:
        return check(base.evaluate.call(interp, node, e));
    }
  };

  interp.evaluateBlock = (statements, e) => {
    let out = '';
    for (const statement of statements) {
      const v = interp.evaluate(statement, e);
      if (SILENT.has(statement.type) || isUndef(v)) continue;
      out += pyStr(v);
      if (out.length > limits.maxOutput) throw overLimit(`output longer than ${limits.maxOutput} characters`);
    }
    return str(out);
  };

  const outer = active;
  active = scope;
  try {
    const result = interp.run(program);
    return { text: pyStr(result), info };
  } catch (err) {
    const e = asTemplateError(err);
    e.info = info;
    throw e;
  } finally {
    active = outer;
  }
}

/** The scope of the render under way (renders are synchronous; a nested one restores it). */
let active: RenderScope | undefined;

/** HA's global functions, made once: they act on the render under way. */
const globals = new Environment();
for (const [k, v] of [
  ['true', true],
  ['false', false],
  ['none', null],
  ['True', true],
  ['False', false],
  ['None', null],
] as const)
  globals.set(k, v);
for (const [name, entry] of Object.entries(FUNCTIONS)) {
  if (!entry.global) continue;
  globals.variables.set(
    name,
    new FunctionValue((raw: RV[]) => {
      const last = raw[raw.length - 1];
      if (last && last.type === 'KeywordArgumentsValue')
        return entry.impl(raw.slice(0, -1), last.value as Kwargs, active!);
      return entry.impl(raw, new Map(), active!);
    }),
  );
}

/** Any failure of a render as HA words it: "<ErrorType>: <detail>". */
function asTemplateError(err: unknown): TemplateError {
  if (err instanceof TemplateError) return err;
  if (err instanceof RangeError) return new TemplateError(`TemplateLimitError: template stopped: ${err.message}`);
  const e = err as Error;
  const kind = e.name === 'Error' || e.name === 'SyntaxError' ? 'TemplateRuntimeError' : e.name;
  return new TemplateError(`${kind}: ${e.message}`);
}
