// time_pattern trigger: hours/minutes/seconds each a number, "*" or "/n" (every n). As in HA,
// naming a larger unit fixes the smaller ones at 0 ("minutes: /5" fires at second 0).
import { cronProblem, onSchedule } from '../schedule.js';
import { ConfigProblem } from '../config-values.js';
import type { TriggerType } from './types.js';

function field(v: unknown, key: string, max: number): string | undefined {
  if (v === undefined || v === null) return undefined;
  const s = String(v).trim();
  if (s === '*') return '*';
  const every = /^\/(\d+)$/.exec(s);
  if (every && Number(every[1]) > 0 && Number(every[1]) <= max) return `*/${every[1]}`;
  if (/^\d+$/.test(s) && Number(s) <= max) return s;
  throw new ConfigProblem(`invalid time_pattern value for dictionary value @ data['${key}']`);
}

function patternOf(c: Record<string, unknown>): string {
  let hours = field(c.hours, 'hours', 23);
  let minutes = field(c.minutes, 'minutes', 59);
  let seconds = field(c.seconds, 'seconds', 59);
  if (!hours && !minutes && !seconds)
    throw new ConfigProblem('time_pattern needs at least one of hours, minutes, seconds');
  if (hours && !minutes) minutes = '0';
  if (minutes && !seconds) seconds = '0';
  hours ??= '*';
  minutes ??= '*';
  return `${seconds} ${minutes} ${hours} * * *`;
}

export const timePatternTrigger: TriggerType = {
  validate(c) {
    const pattern = patternOf(c);
    const problem = cronProblem(pattern);
    if (problem) throw new ConfigProblem(problem);
    return { ...c, pattern };
  },
  describe: () => 'time pattern',
  attach(c, home, fire) {
    return onSchedule(home, c.pattern as string, (when) =>
      fire({ platform: 'time_pattern', now: when.toISOString(), description: 'time pattern' }),
    );
  },
};
