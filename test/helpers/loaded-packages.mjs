// Loaded with `node --import` into a Hamlet child process: when it exits, writes the files of npm
// packages it loaded through require (CommonJS, including those imported from ES modules) to the
// file named by HAMLET_TEST_LOADED_PACKAGES, as a JSON array of paths from the package's name on
// ("nodemailer/lib/addressparser/index.js").
import { writeFileSync } from 'node:fs';
import Module from 'node:module';

const out = process.env.HAMLET_TEST_LOADED_PACKAGES;
const inPackage = (file) => /node_modules\/(?!.*node_modules\/)(.*)$/.exec(file)?.[1];
if (out)
  process.on('exit', () => {
    const files = Object.keys(Module._cache).map(inPackage).filter(Boolean);
    writeFileSync(out, JSON.stringify(files.sort()));
  });
