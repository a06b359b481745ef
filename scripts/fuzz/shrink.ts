// Shrinks a case that differs to a minimal one: drops input items, fields of items, parameters
// and elements of parameter lists, one at a time, keeping each drop while n8n and the engine
// still differ. All the drops of a round run as one batch on n8n.
import type { FuzzCase } from './cases.js';

type Judge = (candidates: FuzzCase[]) => Promise<boolean[]>;

function clone(c: FuzzCase): FuzzCase {
  return structuredClone(c);
}

/** Every object key and array element under `value`, as a path of keys. */
function removablePaths(
  value: unknown,
  path: Array<string | number> = [],
  out: Array<Array<string | number>> = [],
): Array<Array<string | number>> {
  const entries: Array<[string | number, unknown]> = Array.isArray(value)
    ? value.map((v, i) => [i, v])
    : value && typeof value === 'object'
      ? Object.entries(value)
      : [];
  for (const [k, v] of entries) {
    out.push([...path, k]);
    removablePaths(v, [...path, k], out);
  }
  return out;
}

function without(root: any, path: Array<string | number>): void {
  const parent = path.slice(0, -1).reduce((o, k) => o?.[k], root);
  const last = path.at(-1)!;
  if (Array.isArray(parent)) parent.splice(last as number, 1);
  else if (parent && typeof parent === 'object') delete parent[last];
}

/** One step smaller each: an item, a field, a parameter or list element fewer. */
function candidates(c: FuzzCase): FuzzCase[] {
  const out: FuzzCase[] = [];
  c.inputs.forEach((items, k) =>
    items.forEach((item, j) => {
      const dropItem = clone(c);
      dropItem.inputs[k].splice(j, 1);
      out.push(dropItem);
      for (const f of Object.keys(item)) {
        const dropField = clone(c);
        delete dropField.inputs[k][j][f];
        out.push(dropField);
      }
    }),
  );
  for (const p of removablePaths(c.parameters)) {
    const next = clone(c);
    without(next.parameters, p);
    out.push(next);
  }
  return out;
}

/** The smallest case reached by greedy drops (at most `rounds` of them). */
export async function shrink(
  c: FuzzCase,
  stillDiffers: Judge,
  valid: (c: FuzzCase) => boolean = () => true,
  rounds = 40,
): Promise<FuzzCase> {
  let current = c;
  for (let r = 0; r < rounds; r++) {
    // A drop n8n would refuse to run (a required parameter gone) is no smaller case of the same difference.
    const next = candidates(current).filter(valid);
    if (next.length === 0) break;
    const verdicts = await stillDiffers(next);
    const smaller = next.find((_, i) => verdicts[i]);
    if (!smaller) break;
    current = smaller;
  }
  return current;
}
