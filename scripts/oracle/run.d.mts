// Types for run.mjs's export, for the fuzzer (scripts/fuzz).
import type { N8nClient } from './n8n-server.mjs';
export declare function recordFile(n8n: N8nClient, file: string): Promise<{ cases: unknown[] }>;
