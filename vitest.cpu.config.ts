// The suite with a CPU account per test file (test/helpers/cpu-per-file.ts): where the suite
// computes and where it waits. `npx vitest run --config vitest.cpu.config.ts`, then
// `sort -rn .tmp/test-cpu.txt` (own CPU s, children's CPU s, wall s, file).
import { suiteConfig } from './vitest.config.js';

const config = suiteConfig();
config.test!.setupFiles = ['./test/helpers/cpu-per-file.ts'];
export default config;
