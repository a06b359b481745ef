// Child processes of the local cluster: started with their output in a log file, waited on
// until they say they are ready, killed (politely or with SIGKILL) and started again.
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, readFileSync, type WriteStream } from 'node:fs';

export interface ProcessSpec {
  /** Shown in messages and used as the log file's name. */
  name: string;
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  cwd: string;
  logFile: string;
  /** Whether the process can take work yet; `output` is everything it printed so far. Checked on output and every 200 ms. */
  ready(output: string): boolean | Promise<boolean>;
  readyTimeoutMs: number;
}

export class ClusterProcess {
  private child?: ChildProcess;
  private log?: WriteStream;
  private printed = '';
  private exitedAt?: Promise<void>;
  /** Called when the process ends without being asked to (the recipe reports it). */
  onUnexpectedExit?: (name: string, code: number | null, signal: NodeJS.Signals | null) => void;
  private stopping = false;

  constructor(readonly spec: ProcessSpec) {}

  get name(): string {
    return this.spec.name;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  get running(): boolean {
    return !!this.child && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** What the current run printed (stdout and stderr, interleaved as they arrived). */
  output(): string {
    return this.printed;
  }

  /** The whole log file, every run included. */
  logText(): string {
    try {
      return readFileSync(this.spec.logFile, 'utf8');
    } catch {
      return '';
    }
  }

  async start(): Promise<void> {
    if (this.running) throw new Error(`${this.name} is already running`);
    this.stopping = false;
    this.printed = '';
    this.log ??= createWriteStream(this.spec.logFile, { flags: 'a' });
    const child = spawn(this.spec.command, this.spec.args, {
      cwd: this.spec.cwd,
      env: this.spec.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    this.exitedAt = exited;
    child.once('exit', (code, signal) => {
      if (!this.stopping) this.onUnexpectedExit?.(this.name, code, signal);
    });
    const take = (chunk: Buffer) => {
      this.printed += chunk.toString();
      this.log!.write(chunk);
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    const deadline = Date.now() + this.spec.readyTimeoutMs;
    let gone = false;
    void exited.then(() => (gone = true));
    for (;;) {
      if (gone)
        throw new Error(
          `${this.name} exited (${child.exitCode ?? child.signalCode}) before it was ready; its output:\n${this.printed.slice(-4000)}`,
        );
      if (await this.spec.ready(this.printed)) return;
      if (Date.now() > deadline)
        throw new Error(
          `${this.name} did not get ready within ${this.spec.readyTimeoutMs} ms; its output:\n${this.printed.slice(-4000)}`,
        );
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  /** Sends `signal` and waits for the exit; SIGTERM is followed by SIGKILL if the process lingers. */
  async kill(signal: NodeJS.Signals = 'SIGTERM', graceMs = 25_000): Promise<void> {
    const child = this.child;
    if (!child || !this.running) return;
    this.stopping = true;
    child.kill(signal);
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    await this.exitedAt;
    clearTimeout(timer);
  }

  /** Closes the log file once the process will not run again. */
  close(): void {
    this.log?.end();
    this.log = undefined;
  }
}
