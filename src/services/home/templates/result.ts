// HA's parse_result: a render's text becomes a native value when it reads as a Python literal
// (a number, True/False/None, a list, dict or tuple), as render_template results and templated
// service data are. A text that reads as a string, or a number written oddly ("1e5", "007",
// " 5"), stays the text (homeassistant/helpers/template: _cached_parse_result).
const IS_NUMERIC = /^[+-]?(?!0\d)\d*(?:\.\d*)?$/;

class NotALiteral extends Error {}

function parseLiteral(src: string): unknown {
  let i = 0;
  const ws = () => {
    while (i < src.length && /\s/.test(src[i])) i++;
  };
  const fail = (): never => {
    throw new NotALiteral();
  };
  const value = (): unknown => {
    ws();
    const c = src[i];
    if (c === '[' || c === '(') {
      const close = c === '[' ? ']' : ')';
      i++;
      const items: unknown[] = [];
      ws();
      while (src[i] !== close) {
        items.push(value());
        ws();
        if (src[i] === ',') i++;
        else if (src[i] !== close) fail();
        ws();
      }
      i++;
      return items;
    }
    if (c === '{') {
      i++;
      const obj: Record<string, unknown> = {};
      ws();
      while (src[i] !== '}') {
        const k = value();
        ws();
        if (src[i++] !== ':') fail();
        obj[String(k)] = value();
        ws();
        if (src[i] === ',') i++;
        else if (src[i] !== '}') fail();
        ws();
      }
      i++;
      return obj;
    }
    if (c === "'" || c === '"') {
      let out = '';
      i++;
      while (i < src.length && src[i] !== c) {
        if (src[i] === '\\') {
          const e = src[++i];
          out += e === 'n' ? '\n' : e === 't' ? '\t' : e === 'r' ? '\r' : e;
        } else out += src[i];
        i++;
      }
      if (src[i++] !== c) fail();
      return out;
    }
    const word = /^(True|False|None|[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)/.exec(src.slice(i));
    if (!word) return fail();
    i += word[0].length;
    return word[0] === 'True' ? true : word[0] === 'False' ? false : word[0] === 'None' ? null : Number(word[0]);
  };
  const v = value();
  ws();
  if (i !== src.length) fail();
  return v;
}

export function parseResult(text: string): unknown {
  let v: unknown;
  try {
    v = parseLiteral(text.replace(/^[ \t]+/, ''));
  } catch {
    return text;
  }
  if (typeof v === 'string') return text;
  if (typeof v === 'number' && !IS_NUMERIC.test(text)) return text;
  return v;
}
