// What expressions and Code nodes see, built lazily from the run state: nothing is copied
// until an expression asks for it.
import type { ExpressionData, Item } from '../expressions/api.js';
import type { RunData, SourceData, WorkflowDefinition } from './types.js';

export interface RunInfo {
  workflow: WorkflowDefinition;
  executionId: string;
  mode: string;
  resumeUrl: string;
  env: Record<string, string>;
  vars?: Record<string, string>;
  timezone: string;
  runData: RunData;
  /** Each node's context in this execution (Loop Over Items v1's `noItemsLeft`); absent: {}. */
  nodeContext?: Record<string, Record<string, unknown>>;
  now(): Date;
  staticData?: { global: Record<string, unknown>; node: Record<string, unknown> };
}

function firstPair(p: Item['pairedItem']): { item: number; input?: number } | undefined {
  if (p === undefined || p === null) return undefined;
  if (typeof p === 'number') return { item: p };
  if (Array.isArray(p)) return p[0];
  return p;
}

export class RunExpressionData implements ExpressionData {
  itemIndex = 0;

  constructor(
    private readonly info: RunInfo,
    readonly nodeName: string,
    readonly inputItems: Item[],
    readonly runIndex: number,
    private readonly source: Array<SourceData | null> | null,
  ) {}

  nodeContext(nodeName: string): Record<string, unknown> | undefined {
    return this.info.nodeContext?.[nodeName];
  }

  nodeOutput(nodeName: string, outputIndex?: number, runIndex?: number): Item[] | undefined {
    const runs = this.info.runData[nodeName];
    if (!runs?.length) return undefined;
    const run = runs[runIndex ?? runs.length - 1];
    return run?.data?.main[outputIndex ?? this.branchFrom(nodeName)] ?? undefined;
  }

  /**
   * The output of `nodeName` this run descends from (n8n's default branch for `$('X').first()`):
   * a Loop Over Items body reads the "loop" output, not output 0. Output 0 when not an ancestor.
   */
  private branchFrom(nodeName: string): number {
    let src: SourceData | null | undefined = this.source?.[0];
    for (let hops = 0; src && hops < 10_000; hops++) {
      if (src.previousNode === nodeName) return src.previousNodeOutput ?? 0;
      src = this.info.runData[src.previousNode]?.[src.previousNodeRun]?.source?.[0];
    }
    return 0;
  }

  nodeExecuted(nodeName: string): boolean {
    return (this.info.runData[nodeName]?.length ?? 0) > 0;
  }

  nodeParameters(nodeName: string): Record<string, unknown> | undefined {
    return this.info.workflow.nodes.find((n) => n.name === nodeName)?.parameters;
  }

  /** Follows pairedItem links from the current input item back to `nodeName`. */
  pairedItem(nodeName: string, itemIndex: number): Item | undefined {
    let item: Item | undefined = this.inputItems[itemIndex];
    let src: SourceData | null | undefined = this.source?.[0];
    for (let hops = 0; item && src && hops < 10_000; hops++) {
      if (src.previousNode === nodeName) return item;
      const run = this.info.runData[src.previousNode]?.[src.previousNodeRun];
      if (!run) return undefined;
      const pair: { item: number; input?: number } = firstPair(item.pairedItem) ?? { item: 0 };
      const next: SourceData | null | undefined = run.source?.[pair.input ?? 0];
      if (!next) return undefined;
      const prevItems: Item[] | null | undefined = this.info.runData[next.previousNode]?.[next.previousNodeRun]?.data?.main[next.previousNodeOutput];
      item = prevItems?.[pair.item];
      src = next;
    }
    return undefined;
  }

  get prevNode() {
    const s = this.source?.[0];
    return s ? { name: s.previousNode, outputIndex: s.previousNodeOutput, runIndex: s.previousNodeRun } : undefined;
  }

  get workflow() {
    return { id: this.info.workflow.id, name: this.info.workflow.name, active: this.info.workflow.active };
  }

  get execution() {
    return { id: this.info.executionId, mode: this.info.mode === 'manual' ? 'test' : 'production', resumeUrl: this.info.resumeUrl };
  }

  get env() {
    return this.info.env;
  }

  get vars() {
    return this.info.vars ?? {};
  }

  get staticData() {
    return this.info.staticData;
  }

  get now() {
    return this.info.now();
  }

  get timezone() {
    return this.info.timezone;
  }
}
