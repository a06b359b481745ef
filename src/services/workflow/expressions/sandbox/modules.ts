// WebAssembly instances of QuickJS, one per pooled sandbox.
//
// QuickJS guards its own stack, but some of its C code recurses without that guard (freeing
// or stringifying a structure nested 100 000 deep). In WebAssembly those frames live on the
// server's native stack, so such code ends in a host RangeError thrown straight through the
// WASM frames, which leaves that WASM instance in an undefined state. A sandbox therefore owns
// its own instance, and one that saw a host exception is dropped whole (never disposed, never
// reused). Clean sandbox errors (time, memory, QuickJS's own stack check) leave the instance
// healthy: its runtime is disposed and the instance is reused.
//
// Each instance runs in a memory of its own, bounded by the memory limit (sandbox/memory.ts).
// Instances are created asynchronously (~10 ms); a few spares are kept ready so that taking
// one is synchronous, and spares are refilled in the background.

import { newQuickJSWASMModule, newVariant, RELEASE_SYNC, type QuickJSWASMModule } from 'quickjs-emscripten';
import { SandboxMemory } from './memory.js';

/** A QuickJS instance and the memory it runs in. */
export interface Instance {
  module: QuickJSWASMModule;
  memory: SandboxMemory;
}

/** One new instance whose memory is bounded by `limitBytes` (plus the prelude's initial memory). */
export async function createInstance(limitBytes: number): Promise<Instance> {
  const memory = new SandboxMemory(limitBytes);
  const module = await newQuickJSWASMModule(newVariant(RELEASE_SYNC, { wasmMemory: memory.memory }));
  return { module, memory };
}

const SPARES = 2;

/** Spare instances for the sandboxes of one thread. */
export class Instances {
  private readonly spares: Instance[] = [];
  private filling: Promise<void> | undefined;

  constructor(private readonly limitBytes: number) {
    this.refill();
  }

  /** An instance for a new sandbox, or undefined while none is ready (at start, or after crashes). */
  take(): Instance | undefined {
    const instance = this.spares.pop();
    this.refill();
    return instance;
  }

  /** Returns a healthy instance whose runtimes are all disposed. */
  give(instance: Instance): void {
    if (this.spares.length < SPARES) this.spares.push(instance);
  }

  /** Resolves when a spare is available (for callers that can wait). */
  ready(): Promise<void> {
    this.refill();
    return this.spares.length > 0 ? Promise.resolve() : (this.filling ?? Promise.resolve());
  }

  private refill(): void {
    if (this.spares.length >= SPARES) return;
    this.filling ??= this.fill()
      .catch(() => undefined)
      .finally(() => {
        this.filling = undefined;
      });
  }

  private async fill(): Promise<void> {
    while (this.spares.length < SPARES) this.spares.push(await createInstance(this.limitBytes));
  }
}
