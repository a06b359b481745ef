// Types for n8n-server.mjs, for the TypeScript scripts that drive the oracle (scripts/fuzz).
export interface Answer {
  status: number;
  body: any;
}
export declare class N8nClient {
  base: string;
  versionCli?: string;
  rest(method: string, path: string, body?: unknown): Promise<Answer>;
  api(method: string, path: string, body?: unknown): Promise<Answer>;
  version(): Promise<string>;
  stop(): void;
}
export declare function startN8n(dir: string, port: number): Promise<N8nClient>;
