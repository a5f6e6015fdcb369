import { PassThrough } from 'node:stream';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { recallMissingMessage, type ArchiveLookup } from '@dense/core';
import { outFiles, type ImageOriginalPart } from './imageOriginal.js';
import { runRecallBin } from './recallBin.js';
import { RECALL_EXIT } from './recallExit.js';
import type { RecallLookup } from './runRecall.js';

const IMAGE_ID = 'r00000000a1';
const RESULT_ID = 'r00000000b2';
const TEXT_ID = 'r00000000c3';
const homes: string[] = [];
afterEach(async () => {
  for (const home of homes.splice(0)) await rm(home, { recursive: true, force: true });
});

/** A PNG header for 1280×800, then filler to `bytes`. */
function png(bytes: number): Buffer {
  const out = Buffer.alloc(bytes, 7);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(out, 0);
  out.writeUInt32BE(13, 8);
  out.write('IHDR', 12, 'latin1');
  out.writeUInt32BE(1280, 16);
  out.writeUInt32BE(800, 20);
  return out;
}

const SHOT = png(50_000);
const block = (bytes: Buffer) => ({
  type: 'image',
  source: { type: 'base64', media_type: 'image/png', data: bytes.toString('base64') },
});

const ORIGINALS: Readonly<Record<string, string>> = {
  [IMAGE_ID]: JSON.stringify(block(SHOT)),
  [RESULT_ID]: JSON.stringify([{ type: 'text', text: 'the chart' }, block(SHOT)]),
  [TEXT_ID]: 'plain text original',
};

/**
 * Core's `recalledImageParts` as the archive loader hands it over, faked for these originals: an
 * image block, or a list of a text and an image block (core's own test covers the reading).
 */
function imageParts(text: string): ImageOriginalPart[] | undefined {
  if (!text.includes('base64')) return undefined;
  const value = JSON.parse(text) as unknown;
  const list = (Array.isArray(value) ? value : [value]) as {
    text?: string;
    source?: { media_type: string; data: string };
  }[];
  return list.map((part) =>
    part.source === undefined
      ? { kind: 'text', text: part.text ?? '' }
      : {
          kind: 'image',
          mediaType: part.source.media_type,
          size: { width: 1280, height: 800 },
          bytes: Buffer.from(part.source.data, 'base64'),
        },
  );
}

const archive: RecallLookup = {
  dir: '/memory',
  lookup: (id): Promise<ArchiveLookup> => {
    const text = ORIGINALS[id];
    return Promise.resolve(
      text === undefined
        ? { kind: 'missing', reason: 'unknown' }
        : { kind: 'found', bytes: Buffer.from(text, 'utf8') },
    );
  },
  missingMessage: recallMissingMessage,
  imageParts,
};

async function scratch(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'dense-recall-image-'));
  homes.push(dir);
  return dir;
}

async function run(argv: readonly string[]) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  stdout.on('data', (chunk: Buffer) => out.push(chunk));
  stderr.on('data', (chunk: Buffer) => err.push(chunk));
  const code = await runRecallBin(argv, {
    stdout: stdout as unknown as NodeJS.WriteStream,
    stderr: stderr as unknown as NodeJS.WriteStream,
    env: {},
    archive,
  });
  return {
    code,
    stdout: Buffer.concat(out).toString('utf8'),
    stderr: Buffer.concat(err).toString('utf8'),
  };
}

describe('dense recall of an image', () => {
  it('#34.4 prints one line with the media type, size and bytes (never the base64), and how to write it', async () => {
    const { code, stdout } = await run([IMAGE_ID]);
    expect(code).toBe(RECALL_EXIT.found);
    expect(stdout.split('\n')[0]).toBe('[image image/png, 1280×800, 50,000 bytes]');
    expect(stdout).toContain(`dense recall ${IMAGE_ID} --out FILE`);
    expect(stdout.length).toBeLessThan(300);
    const result = await run([RESULT_ID]);
    expect(result.stdout.split('\n').slice(0, 2)).toEqual([
      'the chart',
      '[image image/png, 1280×800, 50,000 bytes]',
    ]);
  });

  it('#34.4 --out FILE writes the image bytes (several: FILE-2 …); --json prints the original as stored', async () => {
    const file = path.join(await scratch(), 'shot.png');
    const written = await run([IMAGE_ID, '--out', file]);
    expect(written.code).toBe(RECALL_EXIT.found);
    expect(written.stdout).toBe(`wrote image/png, 1280×800, 50,000 bytes to ${file}\n`);
    expect((await readFile(file)).equals(SHOT)).toBe(true);
    const json = await run([IMAGE_ID, '--json']);
    expect(JSON.parse(json.stdout)).toEqual(block(SHOT));
    const text = await run([TEXT_ID, '--out', file]);
    expect(text.code).toBe(RECALL_EXIT.malformed);
    expect(text.stderr).toContain('holds no image');
    const two = path.join(await scratch(), 'chart.png');
    const both = await run([RESULT_ID, '--out', two]);
    expect(both.stdout).toBe(`wrote image/png, 1280×800, 50,000 bytes to ${two}\n`);
    expect(outFiles('a/shot.png', 3)).toEqual(['a/shot.png', 'a/shot-2.png', 'a/shot-3.png']);
  });
});
