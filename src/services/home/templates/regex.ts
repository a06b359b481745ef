// Python regular expressions (HA's regex_* filters use Python's `re`) in JavaScript, with a
// guard: JavaScript's engine backtracks and cannot be interrupted, so a pattern that can take
// exponential time (a quantified group that itself holds a quantifier, like (a+)+) is refused
// and the subject's length is capped. Anything else runs in linear-ish time.
import { TemplateValueError } from './datetime.js';

const MAX_REGEX_SUBJECT = 100_000;
const MAX_PATTERN = 1_000;

const cache = new Map<string, RegExp>();

/** Python's (?P<name>…), (?P=name) and a leading (?i) in JavaScript syntax. */
function translate(pattern: string): { source: string; flags: string } {
  let flags = '';
  let source = pattern.replace(/^\(\?([aiLmsux]+)\)/, (_all, f: string) => {
    if (f.includes('i')) flags += 'i';
    if (f.includes('m')) flags += 'm';
    if (f.includes('s')) flags += 's';
    return '';
  });
  source = source
    .replace(/\(\?P<([A-Za-z_]\w*)>/g, '(?<$1>')
    .replace(/\(\?P=([A-Za-z_]\w*)\)/g, '\\k<$1>')
    .replace(/\\Z/g, '$')
    .replace(/\\A/g, '^');
  return { source, flags };
}

/** True when a quantified group contains a quantifier: the shape of catastrophic backtracking. */
function hasNestedQuantifier(source: string): boolean {
  // For each open group: did it contain a quantifier? On ")" followed by a quantifier, refuse if so.
  const stack: boolean[] = [];
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      continue;
    }
    if (c === '[') inClass = true;
    else if (c === '(') stack.push(false);
    else if (c === ')') {
      const inner = stack.pop() ?? false;
      const next = source[i + 1];
      const quantified = next === '*' || next === '+' || next === '{' || next === '?';
      if (inner && quantified && next !== '?') return true;
      if (stack.length && (inner || quantified)) stack[stack.length - 1] = true;
    } else if ((c === '*' || c === '+' || c === '{') && stack.length) stack[stack.length - 1] = true;
  }
  return false;
}

export function compileRegex(pattern: string, ignoreCase: boolean, extraFlags = ''): RegExp {
  const key = `${ignoreCase ? 'i' : '-'}${extraFlags}:${pattern}`;
  let re = cache.get(key);
  if (re) return new RegExp(re.source, re.flags);
  if (pattern.length > MAX_PATTERN)
    throw new TemplateValueError(`regular expression longer than ${MAX_PATTERN} characters`);
  const { source, flags } = translate(pattern);
  if (hasNestedQuantifier(source))
    throw new TemplateValueError(
      `regular expression ${JSON.stringify(pattern)} nests quantifiers (like (a+)+), which can take exponential time; not allowed here`,
    );
  try {
    re = new RegExp(source, [...new Set(flags + (ignoreCase ? 'i' : '') + extraFlags)].join(''));
  } catch (err) {
    throw new TemplateValueError(`invalid regular expression: ${(err as Error).message}`);
  }
  if (cache.size > 500) cache.clear();
  cache.set(key, re);
  return new RegExp(re.source, re.flags);
}

export function regexSubject(value: string): string {
  if (value.length > MAX_REGEX_SUBJECT)
    throw new TemplateValueError(`regex subject longer than ${MAX_REGEX_SUBJECT} characters`);
  return value;
}

/** Python's replacement syntax (\1, \g<1>, \g<name>) in JavaScript's ($1, $<name>). */
export function translateReplacement(replacement: string): string {
  return replacement
    .replace(/\$/g, '$$$$')
    .replace(/\\g<(\d+)>/g, '$$$1')
    .replace(/\\g<([A-Za-z_]\w*)>/g, '$$<$1>')
    .replace(/\\(\d+)/g, '$$$1')
    .replace(/\\n/g, '\n')
    .replace(/\\\\/g, '\\');
}
