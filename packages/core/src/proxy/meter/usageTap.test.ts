import { randomBytes } from 'node:crypto';
import * as zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { MAX_QUEUED_BYTES, UsageTap } from './usageTap.js';

const JSON_REPLY = JSON.stringify({
  id: 'msg_1',
  content: [{ type: 'text', text: 'hello '.repeat(500) }],
  usage: { input_tokens: 11, cache_read_input_tokens: 900, output_tokens: 70 },
});
const JSON_USAGE = { input: 11, cacheCreation: 0, cacheRead: 900, output: 70 };

const SSE_REPLY = [
  'event: message_start\r\ndata: {"type":"message_start","message":{"usage":{"input_tokens":5,"cache_creation_input_tokens":40,"output_tokens":1}}}\r\n\r\n',
  ...Array.from(
    { length: 50 },
    () => 'event: content_block_delta\r\ndata: {"delta":{"text":"x"}}\r\n\r\n',
  ),
  'event: message_delta\r\ndata: {"type":"message_delta","usage":{"output_tokens":9}}\r\n\r\n',
].join('');
const SSE_USAGE = { input: 5, cacheCreation: 40, cacheRead: 0, output: 9 };

const ENCODERS = {
  gzip: (bytes: Buffer) => zlib.gzipSync(bytes),
  br: (bytes: Buffer) => zlib.brotliCompressSync(bytes),
  deflate: (bytes: Buffer) => zlib.deflateSync(bytes),
} as const;

/** `bytes` in pieces of `size`, as a reply arrives. */
function pieces(bytes: Buffer, size: number): Buffer[] {
  const out: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += size) out.push(bytes.subarray(at, at + size));
  return out;
}

async function metered(input: {
  body: Buffer;
  contentType: string;
  contentEncoding?: string;
  size?: number;
}) {
  const tap = new UsageTap({
    contentType: input.contentType,
    contentEncoding: input.contentEncoding,
  });
  for (const chunk of pieces(input.body, input.size ?? 97)) tap.push(chunk);
  return tap.finish();
}

describe('UsageTap', () => {
  for (const [coding, encode] of Object.entries(ENCODERS)) {
    it(`#34.4 a ${coding} JSON reply and a ${coding} SSE reply are metered`, async () => {
      const json = encode(Buffer.from(JSON_REPLY));
      expect(
        await metered({ body: json, contentType: 'application/json', contentEncoding: coding }),
      ).toEqual(JSON_USAGE);
      const sse = encode(Buffer.from(SSE_REPLY));
      const type = 'text/event-stream; charset=utf-8';
      expect(
        await metered({ body: sse, contentType: type, contentEncoding: coding, size: 7 }),
      ).toEqual(SSE_USAGE);
    });
  }

  it('#34.4 raw deflate (no zlib header, as some servers send it) and a cased, spaced header are metered', async () => {
    const raw = zlib.deflateRawSync(Buffer.from(JSON_REPLY));
    const body = { body: raw, contentType: 'application/json' };
    expect(await metered({ ...body, contentEncoding: 'deflate' })).toEqual(JSON_USAGE);
    const gzip = zlib.gzipSync(Buffer.from(JSON_REPLY));
    expect(
      await metered({ body: gzip, contentType: 'application/json', contentEncoding: ' GZIP ' }),
    ).toEqual(JSON_USAGE);
  });

  it('#34.4 an identity reply is metered as it is; an unknown or stacked coding is not metered', async () => {
    const plain = Buffer.from(JSON_REPLY);
    const json = { body: plain, contentType: 'application/json' };
    expect(await metered({ ...json, contentEncoding: 'identity' })).toEqual(JSON_USAGE);
    expect(await metered({ ...json, contentEncoding: 'zstd' })).toBeUndefined();
    const twice = zlib.gzipSync(zlib.gzipSync(plain));
    const stacked = { body: twice, contentType: 'application/json' };
    expect(await metered({ ...stacked, contentEncoding: 'gzip, gzip' })).toBeUndefined();
  });

  it('#34.4 a corrupt gzip body ends metering without an error; finish still resolves', async () => {
    const gzip = zlib.gzipSync(Buffer.from(JSON_REPLY));
    gzip.fill(0x41, 12, 40);
    const body = { body: gzip, contentType: 'application/json', contentEncoding: 'gzip' };
    expect(await metered(body)).toBeUndefined();
  });

  it('#34.4 a gzip bomb: decoding stops once the meter can use no more (16 MiB of JSON)', async () => {
    const bomb = zlib.gzipSync(Buffer.alloc(64 * 1024 * 1024));
    const tap = new UsageTap({ contentType: 'application/json', contentEncoding: 'gzip' });
    for (const chunk of pieces(bomb, 16 * 1024)) tap.push(chunk);
    expect(await tap.finish()).toBeUndefined();
    expect(tap.meteredBytes).toBeGreaterThan(16 * 1024 * 1024);
    expect(tap.meteredBytes).toBeLessThan(17 * 1024 * 1024);
  });

  it('#34.4 compressed input queued past its bound stops metering instead of growing', async () => {
    // Incompressible data events between the usage events, all written at once: faster than
    // the decompressor drains, so the queue passes MAX_QUEUED_BYTES.
    const noise = randomBytes(9 * 1024 * 1024).toString('base64');
    const events = `data: {"n":"${noise}"}\n\n`;
    const body = zlib.gzipSync(Buffer.from(SSE_REPLY.replace('\r\n\r\n', `\r\n\r\n${events}`)));
    expect(body.length).toBeGreaterThan(MAX_QUEUED_BYTES);
    const tap = new UsageTap({ contentType: 'text/event-stream', contentEncoding: 'gzip' });
    for (const chunk of pieces(body, 64 * 1024)) tap.push(chunk);
    expect(await tap.finish()).toBeUndefined();
    expect(tap.meteredBytes).toBeLessThan(MAX_QUEUED_BYTES);
  });

  it('#34.4 a cut compressed reply gives the usage decoded so far without waiting', () => {
    const tap = new UsageTap({ contentType: 'text/event-stream', contentEncoding: 'gzip' });
    tap.push(zlib.gzipSync(Buffer.from(SSE_REPLY)).subarray(0, 20));
    expect(tap.cut()).toBeUndefined();
  });
});
