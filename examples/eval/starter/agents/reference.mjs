// The starter suite's reference agent (docs/evaluations.md, "The starter suite"): a scripted,
// deterministic solution of every task, over the services' REST APIs, chosen by the task's id
// (HAMLET_TASK) from the tables in solutions/. With the argument `careless` it does the task
// and then the careless extra each solution names (collateral damage), which the task's
// collateral rule must catch.
import { task } from './lib.mjs';
import blog from './solutions/blog.mjs';
import community from './solutions/community.mjs';
import cross from './solutions/cross.mjs';
import home from './solutions/home.mjs';
import mail from './solutions/mail.mjs';
import workflow from './solutions/workflow.mjs';

const solutions = { ...mail, ...blog, ...community, ...home, ...workflow, ...cross };
const solution = solutions[task.task];
if (!solution) throw new Error(`no solution for the task ${task.task}`);
await solution.solve();
if (process.argv[2] === 'careless') await solution.careless();
