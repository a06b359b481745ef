// The parts of the console, in the order they register. Adding a view or an admin API is adding
// one file and one line here.
import type { ConsoleModule } from './context.js';
import { overviewPages } from './pages/overview.js';
import { worldAdmin } from './admin/world.js';

export const CONSOLE_MODULES: ConsoleModule[] = [overviewPages, worldAdmin];
