// Types of npm-install.mjs for the TypeScript scripts that use it.
export function packagesUnpacked(dir: string): number;
export function npmInstall(
  dir: string,
  args: string[],
  opts: { label: string; count?: string; log?: (line: string) => void; everyMs?: number },
): Promise<void>;
