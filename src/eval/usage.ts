// The eval commands' usage lines (cli.ts shows them without loading the evaluation code).
export const EVAL_USAGE = `  hamlet eval run <task.yaml…> --agent "<command>" [--parallel N] [--repeat N] [--out DIR]
                                                       run each task's episodes, each in an isolated world; writes DIR/summary.json and DIR/report.html
  hamlet eval check <task.yaml…>                       check task files without running them
  hamlet eval schema                                   print the task format's JSON Schema`;
