// The HTML node's "Convert to HTML Table": every input item as a row of one table, the columns
// being the items' keys in order of first appearance. Markup as n8n 2.8.4 writes it (recorded
// with the oracle): its default inline styles unless `customStyling`, the attribute options
// appended after them (hence the double spaces), values as String() gives them (undefined,
// [object Object], arrays joined with commas; nothing is escaped) and booleans as checkboxes.
import type { NodeContext } from '../engine/node-type.js';

const TABLE_STYLE = "style='border-spacing:0; font-family:helvetica,arial,sans-serif'";
const HEADER_STYLE =
  "style='margin:0; padding:7px 20px 7px 0px; border-bottom:1px solid #eee; text-align:left; color:#888; font-weight:normal'";
const CELL_STYLE = "style='margin:0; padding:7px 20px 7px 0px; border-bottom:1px solid #eee'";

function cell(value: unknown): string {
  if (typeof value === 'boolean')
    return value ? '<input type="checkbox" checked="checked"/>' : '<input type="checkbox" />';
  return String(value);
}

export async function htmlTable(ctx: NodeContext): Promise<string> {
  // As n8n: the table's options are item 0's, any falsy one written as nothing; a row's and its
  // cells' attributes are that row's item's, written as a template writes them (null, undefined).
  const option = async (name: string) => String((await ctx.param<unknown>(`options.${name}`, 0, '')) || '');
  const perRow = async (name: string, i: number) => String(await ctx.param<unknown>(`options.${name}`, i, ''));
  const custom = Boolean(await ctx.param<boolean>('options.customStyling', 0, false));
  const capitalize = Boolean(await ctx.param<boolean>('options.capitalize', 0, false));
  const caption = await option('caption');
  const columns: string[] = [];
  for (const item of ctx.items) for (const key of Object.keys(item.json)) if (!columns.includes(key)) columns.push(key);
  const header = columns
    .map((key) => `<th>${capitalize ? key.charAt(0).toUpperCase() + key.slice(1) : key}</th>`)
    .join('');
  let rows = '';
  for (let i = 0; i < ctx.items.length; i++) {
    const item = ctx.items[i];
    const cellOpen = `<td ${custom ? '' : CELL_STYLE} ${await perRow('cellAttributes', i)}>`;
    rows +=
      `<tr  ${await perRow('rowAttributes', i)}>` +
      columns.map((key) => `${cellOpen}${cell(item.json[key])}</td>`).join('') +
      '</tr>';
  }
  return (
    `<table ${custom ? '' : TABLE_STYLE} ${await option('tableAttributes')}>` +
    (caption ? `<caption>${caption}</caption>` : '') +
    `<thead ${custom ? '' : HEADER_STYLE} ${await option('headerAttributes')}><tr>${header}</tr></thead>` +
    `<tbody>${rows}</tbody></table>`
  );
}
