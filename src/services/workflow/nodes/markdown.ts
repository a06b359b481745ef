// Markdown: Markdown → HTML with showdown and HTML → Markdown with node-html-markdown, the
// libraries n8n's node uses, so the output matches (showdown adds header ids, for example).
// The result goes to `destinationKey` (default "data").
import { NodeHtmlMarkdown } from 'node-html-markdown';
import showdown from 'showdown';
import { NodeOperationError, type NodeType } from '../engine/node-type.js';
import { clone, writePath } from './util.js';

// Node options that map one to one onto showdown's converter options.
const SHOWDOWN_OPTIONS = [
  'noHeaderId',
  'ghCompatibleHeaderId',
  'prefixHeaderId',
  'headerLevelStart',
  'parseImgDimensions',
  'simplifiedAutoLink',
  'excludeTrailingPunctuationFromURLs',
  'literalMidWordUnderscores',
  'strikethrough',
  'tables',
  'tablesHeaderId',
  'ghCodeBlocks',
  'tasklists',
  'smoothLivePreview',
  'smartIndentationFix',
  'disableForced4SpacesIndentedSublists',
  'simpleLineBreaks',
  'requireSpaceBeforeHeadingText',
  'ghMentions',
  'ghMentionsLink',
  'openLinksInNewWindow',
  'backslashEscapesHTMLTags',
  'emoji',
  'underline',
  'completeHTMLDocument',
  'metadata',
  'splitAdjacentBlockquotes',
] as const;

// HTML → Markdown options that map one to one onto node-html-markdown's. `ignore` is left out:
// n8n 2.8.4 ignores it too (observed: an ignored h1 still comes out).
const MARKDOWN_OPTIONS = [
  'bulletMarker',
  'codeBlockStyle',
  'codeFence',
  'emDelimiter',
  'strongDelimiter',
  'keepDataImages',
  'maxConsecutiveNewlines',
  'useInlineLinks',
  'useLinkReferenceDefinitions',
] as const;

/** The node's HTML → Markdown options as node-html-markdown takes them (text replacements are literal, as n8n passes them). */
function markdownOptions(options: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of MARKDOWN_OPTIONS) if (options[name] !== undefined) out[name] = options[name];
  const replace = (options.textReplace as { values?: Array<{ pattern?: string; replacement?: string }> } | undefined)
    ?.values;
  // n8n hands the pattern over as it is, not as a regular expression: each text node has the
  // first literal occurrence replaced, and a value that is no string (an expression's undefined,
  // a number, an object) is matched as JavaScript's replace writes it ("undefined", "9", …).
  if (replace?.length)
    out.textReplace = replace.map((r) => ['pattern' in r ? r.pattern : '', 'replacement' in r ? r.replacement : '']);
  return out;
}

export default {
  types: ['n8n-nodes-base.markdown'],
  async execute(ctx) {
    const mode = ctx.raw<string>('mode', 'htmlToMarkdown');
    const results = [];
    for (let i = 0; i < ctx.items.length; i++) {
      const item = ctx.items[i];
      const rawInput = await ctx.param(mode === 'markdownToHtml' ? 'markdown' : 'html', i, undefined);
      // n8n's converter fails on an absent value with JavaScript's own words (observed).
      if (mode !== 'markdownToHtml' && (rawInput === undefined || rawInput === null))
        throw new NodeOperationError('Cannot convert undefined or null to object', undefined, i);
      const input = String(rawInput ?? '');
      const key = await ctx.param<string>('destinationKey', i, 'data');
      const options = (await ctx.param<Record<string, unknown>>('options', i, {})) ?? {};
      let out: string;
      if (mode === 'markdownToHtml') {
        const converter = new showdown.Converter();
        for (const name of SHOWDOWN_OPTIONS) if (options[name] !== undefined) converter.setOption(name, options[name]);
        out = converter.makeHtml(input);
      } else {
        out = NodeHtmlMarkdown.translate(input, markdownOptions(options));
      }
      const json = clone(item.json);
      writePath(json, key, out);
      results.push({ json, pairedItem: { item: i } });
    }
    return [results];
  },
} satisfies NodeType;
