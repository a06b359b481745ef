/** Whether `root`'s dist/cli.js was built after the last change to src/, package.json and tsconfig.json. */
export function distIsCurrent(root: string): boolean;
