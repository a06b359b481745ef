// Types for install.mjs, for the TypeScript scripts that drive the oracle (scripts/fuzz).
export declare function cacheDir(): string;
export declare function n8nBin(dir?: string): string;
