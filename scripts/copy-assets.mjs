// tsc compiles only TypeScript: copy the files services read at run time (e.g. the demo
// house, the workflow sandbox's guest JavaScript) from src/ to the same place under dist/.
import { cpSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const ASSET = /\.(ya?ml|json|css|html|txt|js)$/;

function copy(dir) {
  for (const name of readdirSync(dir)) {
    const from = path.join(dir, name);
    if (statSync(from).isDirectory()) copy(from);
    // A tsconfig (the sandbox guest's) configures the type checker; it is not read at run time.
    else if (ASSET.test(name) && !name.startsWith('tsconfig'))
      cpSync(from, path.join('dist', path.relative('src', from)));
  }
}
copy('src');
