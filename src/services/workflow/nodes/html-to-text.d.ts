// The part of html-to-text's API the HTML node uses (the package ships no types of its own).
declare module 'html-to-text' {
  export interface SelectorDefinition {
    selector: string;
    format?: string;
    options?: Record<string, unknown>;
  }
  export interface HtmlToTextOptions {
    selectors?: SelectorDefinition[];
    wordwrap?: number | false | null;
    baseElements?: { selectors?: string[] };
  }
  export function convert(html: string, options?: HtmlToTextOptions): string;
}
