// Hamlet's version, read once from package.json (two levels up from src/console or dist/console).
import { readFileSync } from 'node:fs';

let version: string | undefined;

export function hamletVersion(): string {
  version ??= (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string })
    .version;
  return version;
}
