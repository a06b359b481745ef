import type { ConsoleModule } from '../context.js';
export const workflowPages: ConsoleModule = () => {};
