// The forgiving JSON reading n8n applies to Edit Fields' raw "JSON Output" once strict JSON.parse
// has failed. Workflows write `"n": {{ $json.x }}` and the expression leaves bare text behind;
// n8n 2.8.4 repairs that instead of failing (recorded with the oracle):
//   { "a": abc, c: 1, "d": [1,2,], }     → { "a": "abc", "c": 1, "d": [1, 2] }
//   "a": two words                       → "two words"   (bare text up to , } ] or a line end)
//   "a":  }                              → "a": null      (nothing where a value belongs)
//   "b": "q"uote"                        → 'q"uote'       (a quote not followed by , } ] : ends nothing)
//   "t": 12:30, "d": 10 Mar 2024         → invalid       (a number ended by a space or colon is one)
// Unquoted keys, single-quoted strings and trailing commas are read too; a structure left open at
// the end of the text is closed. Anything else still throws.

const DELIMITERS = new Set([',', '}', ']']);

export function parseLenientJson(text: string): unknown {
  let pos = 0;
  const fail = (what: string): never => {
    throw new SyntaxError(`${what} at position ${pos}`);
  };
  const skipSpace = () => {
    while (pos < text.length && /\s/.test(text[pos])) pos++;
  };
  /** The next non-space character after `from`, or '' at the end. */
  const nextSignificant = (from: number) => {
    let i = from;
    while (i < text.length && /\s/.test(text[i])) i++;
    return text[i] ?? '';
  };

  function quoted(): string {
    const quote = text[pos++];
    let out = '';
    while (pos < text.length) {
      const ch = text[pos];
      if (ch === '\\' && pos + 1 < text.length) {
        const raw = JSON.parse(`"${text.slice(pos, pos + (text[pos + 1] === 'u' ? 6 : 2))}"`) as string;
        out += raw;
        pos += text[pos + 1] === 'u' ? 6 : 2;
        continue;
      }
      if (ch === quote) {
        const after = nextSignificant(pos + 1);
        // A closing quote is one followed by a delimiter, a colon (a key) or the end.
        if (after === '' || DELIMITERS.has(after) || after === ':') {
          pos++;
          return out;
        }
      }
      out += ch;
      pos++;
    }
    return out; // left open at the end: closed here
  }

  function bare(stopAtColon: boolean): string {
    const start = pos;
    while (pos < text.length && !DELIMITERS.has(text[pos]) && text[pos] !== '\n' && !(stopAtColon && text[pos] === ':'))
      pos++;
    return text.slice(start, pos).trim();
  }

  function value(): unknown {
    skipSpace();
    const ch = text[pos];
    if (ch === undefined || DELIMITERS.has(ch)) return null;
    if (ch === '{') return object();
    if (ch === '[') return array();
    if (ch === '"' || ch === "'") return quoted();
    // A number that a space, colon, slash or parenthesis ends is a number, and what follows must
    // then be a delimiter: n8n reads `"n": 10 Mar 2024` or `"n": 12:30` as invalid JSON,
    // though `"n": 2024-03-10` and `"n": 12abc` are text.
    // (Leading zeros are allowed there, kept as text: `"d": 03/10/2024` is invalid too.)
    const num = /^-?(\d+)(\.\d+)?([eE][+-]?\d+)?(?=[\s:/)])/.exec(text.slice(pos));
    if (num) {
      pos += num[0].length;
      return /^0\d/.test(num[1]) ? num[0] : Number(num[0]);
    }
    const token = bare(false);
    if (token === 'true') return true;
    if (token === 'false') return false;
    if (token === 'null' || token === 'undefined') return null;
    if (/^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/.test(token)) return Number(token);
    return token;
  }

  /** Skips the commas before a container's next entry; true when the container ends (its closer, or the end of the text). */
  function ends(close: string): boolean {
    skipSpace();
    while (text[pos] === ',') {
      pos++;
      skipSpace();
    }
    if (pos >= text.length) return true;
    if (text[pos] !== close) return false;
    pos++;
    return true;
  }

  /** After an entry: a comma, the closer or the end of the text must follow. */
  function afterEntry(close: string): void {
    skipSpace();
    if (text[pos] !== ',' && text[pos] !== close && pos < text.length) fail(`Expected ',' or '${close}'`);
  }

  function object(): Record<string, unknown> {
    pos++; // {
    const out: Record<string, unknown> = {};
    while (!ends('}')) {
      const key = text[pos] === '"' || text[pos] === "'" ? quoted() : bare(true);
      skipSpace();
      if (text[pos] !== ':') fail(`Expected ':' after key "${key}"`);
      pos++;
      out[key] = value();
      afterEntry('}');
    }
    return out;
  }

  function array(): unknown[] {
    pos++; // [
    const out: unknown[] = [];
    while (!ends(']')) {
      out.push(value());
      afterEntry(']');
    }
    return out;
  }

  const result = value();
  skipSpace();
  if (pos < text.length) fail('Unexpected text after the JSON value');
  return result;
}
