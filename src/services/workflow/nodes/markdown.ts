// Markdown: Markdown to HTML (markdown-it) or HTML to Markdown (a small converter for the
// common tags). The result goes to `destinationKey` (default "data").
import MarkdownIt from 'markdown-it';
import type { NodeType } from '../engine/node-type.js';
import { clone, writePath } from './util.js';

const md = new MarkdownIt({ html: true, linkify: false });

function htmlToMarkdown(html: string): string {
  return html
    .replace(/<h([1-6])[^>]*>([\s\S]*?)<\/h\1>/gi, (_, n, t) => `${'#'.repeat(Number(n))} ${t.trim()}\n\n`)
    .replace(/<(strong|b)>([\s\S]*?)<\/\1>/gi, '**$2**')
    .replace(/<(em|i)>([\s\S]*?)<\/\1>/gi, '_$2_')
    .replace(/<a [^>]*href="([^"]*)"[^>]*>([\s\S]*?)<\/a>/gi, '[$2]($1)')
    .replace(/<li[^>]*>([\s\S]*?)<\/li>/gi, '* $1\n')
    .replace(/<br\s*\/?>/gi, '  \n')
    .replace(/<\/p>/gi, '\n\n')
    .replace(/<[^>]+>/g, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

export default {
  types: ['n8n-nodes-base.markdown'],
  execute(ctx) {
    const mode = ctx.raw<string>('mode', 'htmlToMarkdown');
    return [
      ctx.items.map((item, i) => {
        const input = String(ctx.param(mode === 'markdownToHtml' ? 'markdown' : 'html', i, '') ?? '');
        const key = ctx.param<string>('destinationKey', i, 'data');
        const json = clone(item.json);
        writePath(json, key, mode === 'markdownToHtml' ? md.render(input).trimEnd() : htmlToMarkdown(input));
        return { json, pairedItem: { item: i } };
      }),
    ];
  },
} satisfies NodeType;
