// The item a schedule fire emits (Schedule Trigger and Cron share it): n8n's readable fields, all strings.
import { DateTime } from 'luxon';
import type { Item } from '../expressions/api.js';

function ordinal(n: number): string {
  const s = ['th', 'st', 'nd', 'rd'];
  const v = n % 100;
  return n + (s[(v - 20) % 10] ?? s[v] ?? s[0]);
}

export function scheduleItem(at: Date, zone: string): Item {
  const d = DateTime.fromJSDate(at, { zone });
  const time = d.toFormat('h:mm:ss a').toLowerCase();
  return {
    json: {
      timestamp: d.toISO(),
      'Readable date': `${d.toFormat('MMMM')} ${ordinal(d.day)} ${d.year}, ${time}`,
      'Readable time': time,
      'Day of week': d.toFormat('cccc'),
      Year: String(d.year),
      Month: d.toFormat('MMMM'),
      'Day of month': d.toFormat('dd'),
      Hour: d.toFormat('HH'),
      Minute: d.toFormat('mm'),
      Second: d.toFormat('ss'),
      Timezone: `${zone} (UTC${d.toFormat('ZZ')})`,
    },
  };
}
