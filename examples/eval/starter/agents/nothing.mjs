// The do-nothing agent of the starter suite: it reads its task and stops, changing nothing.
// Every task must fail with it (a task a do-nothing agent passes checks nothing).
import { task } from './lib.mjs';

console.log(`${task.task}: doing nothing`);
