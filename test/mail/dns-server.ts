// A small authoritative DNS server over UDP for the mail tests: it answers MX, TXT and CNAME
// questions from a zone the test fills in, so domain verification and DKIM verification do
// real DNS lookups (node:dns pointed at it) without leaving the machine.
import dgram from 'node:dgram';

export type ZoneRecord = { type: 'MX'; value: string; priority: number } | { type: 'TXT' | 'CNAME'; value: string };

const TYPES = { MX: 15, TXT: 16, CNAME: 5 } as const;

function encodeName(name: string): Buffer {
  const parts = name.replace(/\.$/, '').split('.').filter(Boolean);
  return Buffer.concat([
    ...parts.map((p) => Buffer.concat([Buffer.from([Buffer.byteLength(p)]), Buffer.from(p)])),
    Buffer.from([0]),
  ]);
}

/** Reads the question's name (no compression in a query) and returns it with the offset after it. */
function readName(msg: Buffer, offset: number): [string, number] {
  const labels: string[] = [];
  while (msg[offset] !== 0) {
    const len = msg[offset];
    labels.push(msg.subarray(offset + 1, offset + 1 + len).toString());
    offset += len + 1;
  }
  return [labels.join('.').toLowerCase(), offset + 1];
}

function rdata(r: ZoneRecord): Buffer {
  if (r.type === 'MX') return Buffer.concat([Buffer.from([r.priority >> 8, r.priority & 255]), encodeName(r.value)]);
  if (r.type === 'CNAME') return encodeName(r.value);
  // A TXT value longer than 255 bytes goes as several strings, as DKIM keys do.
  const bytes = Buffer.from(r.value);
  const chunks: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += 255) {
    const part = bytes.subarray(i, i + 255);
    chunks.push(Buffer.from([part.length]), part);
  }
  return Buffer.concat(chunks);
}

export async function startDnsServer() {
  const zone = new Map<string, ZoneRecord[]>();
  const socket = dgram.createSocket('udp4');
  socket.on('message', (msg, peer) => {
    if (msg.length < 12) return;
    const [name, end] = readName(msg, 12);
    const qtype = msg.readUInt16BE(end);
    const question = msg.subarray(12, end + 4);
    const all = zone.get(name);
    const answers = (all ?? []).filter((r) => TYPES[r.type] === qtype);
    const header = Buffer.alloc(12);
    header.writeUInt16BE(msg.readUInt16BE(0), 0);
    // QR, AA, RD copied, RA; NXDOMAIN when the name has no record at all.
    header.writeUInt16BE(0x8000 | 0x0400 | (msg.readUInt16BE(2) & 0x0100) | 0x0080 | (all ? 0 : 3), 2);
    header.writeUInt16BE(1, 4);
    header.writeUInt16BE(answers.length, 6);
    const rrs = answers.map((r) => {
      const data = rdata(r);
      const fixed = Buffer.alloc(10);
      fixed.writeUInt16BE(TYPES[r.type], 0);
      fixed.writeUInt16BE(1, 2);
      fixed.writeUInt32BE(60, 4);
      fixed.writeUInt16BE(data.length, 8);
      // 0xc00c points at the question's name.
      return Buffer.concat([Buffer.from([0xc0, 0x0c]), fixed, data]);
    });
    socket.send(Buffer.concat([header, question, ...rrs]), peer.port, peer.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address();
  return {
    address: `127.0.0.1:${port}`,
    /** Publishes a record (names are matched without case and without a trailing dot). */
    publish(name: string, record: ZoneRecord) {
      const key = name.toLowerCase().replace(/\.$/, '');
      zone.set(key, [...(zone.get(key) ?? []), record]);
    },
    /** Takes every record of a name down. */
    unpublish(name: string) {
      zone.delete(name.toLowerCase().replace(/\.$/, ''));
    },
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}
