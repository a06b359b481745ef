// Markdown: Markdown → HTML with showdown and HTML → Markdown with node-html-markdown, the
// libraries n8n's node uses, so the output matches (showdown adds header ids, for example).
// The result goes to `destinationKey` (default "data").
import { NodeHtmlMarkdown } from 'node-html-markdown';
import showdown from 'showdown';
import type { NodeType } from '../engine/node-type.js';
import { clone, writePath } from './util.js';

// Node options that map one to one onto showdown's converter options.
const SHOWDOWN_OPTIONS = [
  'noHeaderId', 'ghCompatibleHeaderId', 'prefixHeaderId', 'headerLevelStart', 'parseImgDimensions', 'simplifiedAutoLink',
  'excludeTrailingPunctuationFromURLs', 'literalMidWordUnderscores', 'strikethrough', 'tables', 'tablesHeaderId',
  'ghCodeBlocks', 'tasklists', 'smoothLivePreview', 'smartIndentationFix', 'disableForced4SpacesIndentedSublists',
  'simpleLineBreaks', 'requireSpaceBeforeHeadingText', 'ghMentions', 'ghMentionsLink', 'openLinksInNewWindow',
  'backslashEscapesHTMLTags', 'emoji', 'underline', 'completeHTMLDocument', 'metadata', 'splitAdjacentBlockquotes',
] as const;

export default {
  types: ['n8n-nodes-base.markdown'],
  execute(ctx) {
    const mode = ctx.raw<string>('mode', 'htmlToMarkdown');
    return [
      ctx.items.map((item, i) => {
        const input = String(ctx.param(mode === 'markdownToHtml' ? 'markdown' : 'html', i, '') ?? '');
        const key = ctx.param<string>('destinationKey', i, 'data');
        const options = ctx.param<Record<string, unknown>>('options', i, {}) ?? {};
        let out: string;
        if (mode === 'markdownToHtml') {
          const converter = new showdown.Converter();
          for (const name of SHOWDOWN_OPTIONS) if (options[name] !== undefined) converter.setOption(name, options[name]);
          out = converter.makeHtml(input);
        } else {
          out = NodeHtmlMarkdown.translate(input);
        }
        const json = clone(item.json);
        writePath(json, key, out);
        return { json, pairedItem: { item: i } };
      }),
    ];
  },
} satisfies NodeType;
