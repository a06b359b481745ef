// The WebAssembly memory of one QuickJS instance, bounded where memory is actually taken.
//
// QuickJS's own memory limit undercounts in this WebAssembly build: it adds what malloc reports
// as usable for each block, which Emscripten reports as 0, so only the block being allocated is
// checked against the limit (one huge string is refused; a million 1 MB ones are not). Checking
// the instance's size from QuickJS's interrupt handler came too late: the handler runs every
// ten thousand or so operations, and one operation can allocate megabytes (the memory bombs
// grew the server's RSS by 0.6–2 GB before a check saw them, and then met the clock first).
//
// So the memory is ours: each instance gets a WebAssembly.Memory we create (Emscripten uses a
// memory it is given), with a hard maximum, and its `grow` refuses to pass a ceiling. Emscripten
// grows the memory only through that method when malloc needs more; refused, malloc returns
// NULL and QuickJS throws its "out of memory" at the allocation itself. `exhausted` records
// the refusal, so the sandbox names the memory limit even if the code catches that error (the
// interrupt handler then stops it).

/** Emscripten's initial memory for this build (its INITIAL_MEMORY); the prelude fits in it. */
const INITIAL_BYTES = 16 * 1024 * 1024;
/**
 * Room above the run's ceiling for libraries loaded during a run (Luxon, JMESPath): loading
 * them is not the user's memory, so the ceiling is lifted to the hard maximum meanwhile.
 */
const LIBRARY_HEADROOM_BYTES = 16 * 1024 * 1024;
const PAGE = 65536;

export class SandboxMemory {
  readonly memory: WebAssembly.Memory;
  /** What a sandbox may grow the instance to: its initial size plus the memory limit. */
  readonly normalCeiling: number;
  /** The instance can never grow past this (libraries included). */
  readonly maximum: number;
  private ceiling: number;
  /** A growth past the ceiling was refused since the last reset(). */
  exhausted = false;

  constructor(readonly limitBytes: number) {
    this.normalCeiling = INITIAL_BYTES + limitBytes;
    this.maximum = this.normalCeiling + LIBRARY_HEADROOM_BYTES;
    this.ceiling = this.normalCeiling;
    this.memory = new WebAssembly.Memory({ initial: INITIAL_BYTES / PAGE, maximum: Math.ceil(this.maximum / PAGE) });
    const grow = this.memory.grow.bind(this.memory);
    // Emscripten calls `memory.grow` on the object it was given: this own property is what it calls.
    this.memory.grow = (deltaPages: number): number => {
      if (this.size + deltaPages * PAGE > this.ceiling) {
        this.exhausted = true;
        throw new RangeError('sandbox memory limit');
      }
      return grow(deltaPages);
    };
  }

  /** Bytes the instance holds now (WebAssembly memory never shrinks). */
  get size(): number {
    return this.memory.buffer.byteLength;
  }

  /** A new sandbox starts here: the normal ceiling, nothing refused. */
  reset(): void {
    this.ceiling = this.normalCeiling;
    this.exhausted = false;
  }

  /**
   * Runs trusted work (setup, a library) with the ceiling at the hard maximum; what it made
   * the instance grow by is added to the ceiling afterwards, so it is not taken from the user.
   */
  lifted<T>(work: () => T): T {
    const before = this.size;
    const ceiling = this.ceiling;
    this.ceiling = this.maximum;
    try {
      return work();
    } finally {
      this.ceiling = Math.min(this.maximum, ceiling + (this.size - before));
    }
  }
}
