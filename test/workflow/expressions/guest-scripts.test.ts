// The sandbox's guest code (src/services/workflow/expressions/guest/*.js) is type-checked as
// scripts with the globals the host gives it. `npm run typecheck` does this too; the test makes
// `npm test` (and so CI) fail on a guest type error, and on a guest file the check leaves out.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { expect, it } from 'vitest';

const GUEST = path.resolve('src/services/workflow/expressions/guest');

function guestFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return guestFiles(file);
    return entry.name.endsWith('.js') ? [file] : [];
  });
}

it('the guest scripts type-check, every one of them', () => {
  const config = ts.getParsedCommandLineOfConfigFile(
    path.join(GUEST, 'tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  )!;
  expect(config.errors).toEqual([]);
  expect(config.fileNames.filter((f) => f.endsWith('.js')).sort()).toEqual(
    guestFiles(GUEST)
      .map((f) => f.split(path.sep).join('/'))
      .sort(),
  );
  const program = ts.createProgram(config.fileNames, config.options);
  const problems = ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file
      ? `${path.relative(GUEST, d.file.fileName)}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1} `
      : '';
    return where + ts.flattenDiagnosticMessageText(d.messageText, ' ');
  });
  expect(problems).toEqual([]);
}, 60_000);
