// The host side of the sandbox's URL (the guest side, with URLSearchParams, btoa/atob and
// structuredClone, is ../guest/web.js): parsed by the host's WHATWG parser through one host
// operation, text in, JSON out.

/** The host side of `new URL(input, base)`: the parsed parts, or a TypeError like Node's. */
export function hostParseUrl(input: string, base: string | undefined): string {
  let url: URL;
  try {
    url = base === undefined ? new URL(input) : new URL(input, base);
  } catch {
    throw new TypeError('Invalid URL');
  }
  const { href, protocol, username, password, host, hostname, port, pathname, search, hash, origin } = url;
  return JSON.stringify({ href, protocol, username, password, host, hostname, port, pathname, search, hash, origin });
}
