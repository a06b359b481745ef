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
// Instances are created asynchronously (~10 ms); a few spares are kept ready so that taking
// one is synchronous, and spares are refilled in the background.

import { newQuickJSWASMModule, RELEASE_SYNC, type QuickJSWASMModule } from 'quickjs-emscripten';

const SPARES = 2;
const spares: QuickJSWASMModule[] = [];
let filling: Promise<void> | undefined;

async function fill(): Promise<void> {
  while (spares.length < SPARES) spares.push(await newQuickJSWASMModule(RELEASE_SYNC));
}

function refill(): void {
  filling ??= fill()
    .catch(() => undefined)
    .finally(() => {
      filling = undefined;
    });
}

await fill();

/** A QuickJS instance for a new sandbox, or undefined when all spares are in use (rare: only after crashes). */
export function takeModule(): QuickJSWASMModule | undefined {
  const module = spares.pop();
  refill();
  return module;
}

/** Returns a healthy instance whose runtimes are all disposed. */
export function returnModule(module: QuickJSWASMModule): void {
  if (spares.length < SPARES) spares.push(module);
}

/** Resolves when spares are available again (for callers that can wait). */
export function modulesReady(): Promise<void> {
  refill();
  return filling ?? Promise.resolve();
}
