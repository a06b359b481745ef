// Markdown: Markdown → HTML with showdown and HTML → Markdown with node-html-markdown, the
// libraries n8n's node uses, so the output matches (showdown adds header ids, for example).
// The result goes to `destinationKey` (default "data").
import { nodeHtmlMarkdown, showdown } from '../../../platform/optional-modules.js';
import { NodeOperationError, type NodeType } from '../engine/node-type.js';
import { clone, deletePath, writePath } from './util.js';

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
  // Only options with a truthy value are passed on (false, 0 and '' leave the library's default).
  for (const name of MARKDOWN_OPTIONS) if (options[name]) out[name] = options[name];
  const replace = (options.textReplace as { values?: Array<{ pattern?: string; replacement?: string }> } | undefined)
    ?.values;
  // n8n hands the pattern over as it is, not as a regular expression: each text node has the
  // first literal occurrence replaced, and a value that is no string (an expression's undefined,
  // a number, an object) is matched as JavaScript's replace writes it ("undefined", "9", …).
  if (replace?.length)
    out.textReplace = replace.map((r) => ['pattern' in r ? r.pattern : '', 'replacement' in r ? r.replacement : '']);
  // The escapes replace the library's own: a regular expression made of the pattern as given (no
  // flags, so an absent pattern matches once at the start) and the replacement, even undefined
  // (observed: "undefined# T"); an absent pattern or replacement is ''.
  for (const name of ['globalEscape', 'lineStartEscape'] as const) {
    const escape = (options[name] as { value?: { pattern?: unknown; replacement?: unknown } } | undefined)?.value;
    if (!escape) continue;
    // A pattern given as an expression that reads nothing turns the escape off (observed).
    if ('pattern' in escape && escape.pattern === undefined) out[name] = [/(?!)/, ''];
    else
      out[name] = [
        new RegExp('pattern' in escape ? (escape.pattern as string) : ''),
        'replacement' in escape ? escape.replacement : '',
      ];
  }
  // Block elements and ignored elements are comma-separated lists; a falsy value (null, '') is
  // none, anything else but text fails as JavaScript's split does (the ignore list then has no
  // effect: observed).
  if (options.ignore && typeof options.ignore !== 'string')
    throw new NodeOperationError('options.ignore.split is not a function');
  if (options.blockElements) {
    if (typeof options.blockElements !== 'string')
      throw new NodeOperationError('options.blockElements.split is not a function');
    out.blockElements = options.blockElements.split(',').map((e) => e.trim());
  }
  return out;
}

/**
 * HTML → Markdown as node-html-markdown's translate takes its argument: text is HTML; anything
 * else is a map of file names to HTML, so the answer is such a map (observed: [] and 3 give {}).
 */
function toMarkdown(input: unknown, options: Record<string, unknown>): unknown {
  const { NodeHtmlMarkdown } = nodeHtmlMarkdown();
  if (typeof input === 'string') return NodeHtmlMarkdown.translate(input, options);
  return Object.fromEntries(
    Object.entries(Object(input) as Record<string, unknown>).map(([k, v]) => {
      // A file of null (or undefined) fails as the library reads its length.
      if (v === null || v === undefined)
        throw new NodeOperationError(`Cannot read properties of ${String(v)} (reading 'length')`);
      return [k, NodeHtmlMarkdown.translate(String(v), options)];
    }),
  );
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
      const key = await ctx.param<string>('destinationKey', i, 'data');
      const options = (await ctx.param<Record<string, unknown>>('options', i, {})) ?? {};
      let out: unknown;
      if (mode === 'markdownToHtml' && !rawInput) {
        // showdown gives a falsy text back as it is (undefined writes nothing, 0 stays 0).
        out = rawInput;
      } else if (mode === 'markdownToHtml') {
        // showdown reads only text: anything else fails as its first call does (observed).
        if (typeof rawInput !== 'string') throw new NodeOperationError('text.replace is not a function', undefined, i);
        const input = rawInput;
        const converter = new (showdown().Converter)();
        for (const name of SHOWDOWN_OPTIONS) if (options[name] !== undefined) converter.setOption(name, options[name]);
        out = converter.makeHtml(input);
      } else {
        out = toMarkdown(rawInput, markdownOptions(options));
      }
      const json = clone(item.json);
      // As lodash's set: a key named with the dots wins over the path; undefined is written too
      // (so the key is gone from the item, the objects on its path stay).
      if (Object.hasOwn(json, key)) json[key] = out;
      else writePath(json, key, out);
      if (out === undefined) deletePath(json, key);
      results.push({ json, pairedItem: { item: i } });
    }
    return [results];
  },
} satisfies NodeType;
