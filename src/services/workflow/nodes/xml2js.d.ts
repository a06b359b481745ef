// The part of xml2js the XML node uses (the package ships no types).
declare module 'xml2js' {
  export class Parser {
    constructor(options?: Record<string, unknown>);
    parseStringPromise(xml: string): Promise<unknown>;
  }
  export class Builder {
    constructor(options?: Record<string, unknown>);
    buildObject(obj: unknown): string;
  }
}
