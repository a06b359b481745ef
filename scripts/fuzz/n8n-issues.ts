// Whether n8n would refuse to run a case for its parameters ("The workflow has issues and cannot
// be executed"): n8n checks, before a manual run, every node's parameters against its
// description (required values present, `validateType`, filter conditions of the right type,
// fixed collections' counts). A case n8n refuses tests nothing of the node's behaviour, and one
// such case in a batch refuses the whole batch, so the fuzzer keeps only cases n8n accepts.
// The check is n8n's own, called from the oracle's install (a tool here, as n8n itself is).
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { cacheDir } from '../oracle/install.mjs';
import type { FuzzCase } from './cases.js';
import type { NodeDescription } from './params.js';

interface NodeHelpers {
  getNodeParameters(
    props: unknown,
    params: unknown,
    returnDefaults: boolean,
    returnNoneDisplayed: boolean,
    node: unknown,
    desc: unknown,
  ): Record<string, unknown> | null;
  getNodeParametersIssues(props: unknown, node: unknown, desc: unknown): Record<string, unknown> | null;
}

let helpers: NodeHelpers | undefined;
function n8nHelpers(): NodeHelpers {
  if (!helpers) {
    const require = createRequire(join(process.env.FUZZ_N8N_DIR ?? cacheDir(), 'node_modules', 'n8n', 'package.json'));
    helpers = (require('n8n-workflow') as { NodeHelpers: NodeHelpers }).NodeHelpers;
  }
  return helpers;
}

/** n8n's parameter issues for the case's node (null: none, n8n runs it), defaults filled in first as n8n's Workflow does. */
export function parameterIssues(desc: NodeDescription, c: FuzzCase): Record<string, unknown> | null {
  const h = n8nHelpers();
  const node = {
    id: 'x',
    name: 'Test',
    type: `n8n-nodes-base.${c.type}`,
    typeVersion: c.typeVersion,
    position: [0, 0],
    parameters: structuredClone(c.parameters),
  };
  node.parameters = h.getNodeParameters(desc.properties, node.parameters, true, false, node, desc) ?? {};
  return h.getNodeParametersIssues(desc.properties, node, desc);
}
