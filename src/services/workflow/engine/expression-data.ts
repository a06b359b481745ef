// What expressions and Code nodes see, built lazily from the run state: nothing is copied
// until an expression asks for it.
import { ExpressionError, type ExpressionData, type Item } from '../expressions/api.js';
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
  /** The execution's custom data, written in place by Code runs and the Execution Data node. */
  customData?: Record<string, string>;
}

/** Every link of an item's pairedItem (an item without one derives from item 0 of input 0). */
function pairsOf(p: Item['pairedItem']): Array<{ item: number; input?: number }> {
  if (p === undefined || p === null) return [{ item: 0 }];
  if (typeof p === 'number') return [{ item: p }];
  return Array.isArray(p) ? p : [p];
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

  nodeRunCount(nodeName: string): number {
    return this.info.runData[nodeName]?.length ?? 0;
  }

  nodeExecuted(nodeName: string): boolean {
    return (this.info.runData[nodeName]?.length ?? 0) > 0;
  }

  nodeParameters(nodeName: string): Record<string, unknown> | undefined {
    return this.info.workflow.nodes.find((n) => n.name === nodeName)?.parameters;
  }

  /**
   * Follows pairedItem links from the current input item back to `nodeName`, along every link
   * (an item merged from two inputs links to both): undefined when no path gets there, n8n's
   * "Multiple matches found" when paths end at different items.
   */
  pairedItem(nodeName: string, itemIndex: number): Item | undefined {
    const first = this.inputItems[itemIndex];
    const source = this.source?.[0];
    if (!first || !source) return undefined;
    const found = new Set<Item>();
    const todo: Array<{ item: Item; src: SourceData }> = [{ item: first, src: source }];
    for (let steps = 0; todo.length && steps < 10_000; steps++) {
      const { item, src } = todo.pop()!;
      if (src.previousNode === nodeName) {
        found.add(item);
        continue;
      }
      const run = this.info.runData[src.previousNode]?.[src.previousNodeRun];
      if (!run) continue;
      for (const pair of pairsOf(item.pairedItem)) {
        const next: SourceData | null | undefined = run.source?.[pair.input ?? 0];
        const prev = next
          ? this.info.runData[next.previousNode]?.[next.previousNodeRun]?.data?.main[next.previousNodeOutput]?.[
              pair.item
            ]
          : undefined;
        if (prev && next) todo.push({ item: prev, src: next });
      }
    }
    if (found.size > 1) {
      throw new ExpressionError(
        'Multiple matches found',
        undefined,
        `The code here won't work because it uses .item and n8n can't figure out the matching item. (There are multiple possible matches)`,
      );
    }
    return found.values().next().value;
  }

  get prevNode() {
    const s = this.source?.[0];
    return s ? { name: s.previousNode, outputIndex: s.previousNodeOutput, runIndex: s.previousNodeRun } : undefined;
  }

  get workflow() {
    return { id: this.info.workflow.id, name: this.info.workflow.name, active: this.info.workflow.active };
  }

  get execution() {
    return {
      id: this.info.executionId,
      mode: this.info.mode === 'manual' ? 'test' : 'production',
      resumeUrl: this.info.resumeUrl,
      customData: this.info.customData,
    };
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
