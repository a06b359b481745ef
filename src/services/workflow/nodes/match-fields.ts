// "Fields to Match" of Compare Datasets and Merge (combine by fields), checked as n8n 2.8.4 checks
// them before matching (observed, every version of both nodes).
import { NodeOperationError } from '../engine/node-type.js';

/** n8n's check of "Fields to Match": one pair at least (a lone empty pair counts as none), each pair both fields. */
export function checkPairs(
  pairs: Array<{ field1?: string; field2?: string }>,
): Array<{ field1: string; field2: string }> {
  const text = (v: unknown) => (v === undefined || v === null ? '' : String(v));
  if (!pairs.length || (pairs.length === 1 && !text(pairs[0].field1) && !text(pairs[0].field2)))
    throw new NodeOperationError('You need to define at least one pair of fields in "Fields to Match" to match on');
  return pairs.map((p, i) => {
    const [field1, field2] = [text(p.field1), text(p.field2)];
    if (!field1 || !field2)
      throw new NodeOperationError(
        `You need to define both fields in "Fields to Match" for pair ${i + 1},\n\t\t\t\t field 1 = '${field1}'\n\t\t\t\t field 2 = '${field2}'`,
      );
    return { field1, field2 };
  });
}
