import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RecallArchive } from '../../recall/RecallArchive.js';
import { recallIdOfResponse } from '../../core/compression/recallPointers.js';
import { toolResponseBlock } from '../../services/history/IContent.js';
import { ConversationStore } from '../decide/conversationStore.js';
import { densifyRequest } from '../densify/densifyRequest.js';
import { proxyPointer } from '../decide/proxyPointer.js';
import { closeLoopback, proxyTo, send, stub } from '../test-utils/loopbackProxy.js';
import {
  anthropicBody,
  claudeSession,
  codexBody,
  FILE_TEXT,
  pointedId,
  densifyOptions,
} from '../test-utils/wireRequests.js';

afterEach(closeLoopback);

/** Non-ASCII, CRLF line ends, a tab, and no newline at the end. */
const AWKWARD = Array.from({ length: 40 }, (_, i) => `${i}\tconst s = "ünïcødé ✓ 🎉";`).join(
  '\r\n',
);

describe('proxy pointers name `dense recall <id>`', () => {
  it('#24.2 the pointer names the result’s recall id and the command; the original is handed out', () => {
    const result = densifyRequest(densifyOptions(anthropicBody(claudeSession(2))));
    const sent = result.body.toString();
    const id = pointedId(sent);
    expect(id).toMatch(/^r[0-9a-f]{10}$/);
    expect(sent).toContain(JSON.stringify(proxyPointer(id ?? '', FILE_TEXT)));
    expect(sent).toContain(`run \`dense recall ${id}\``);
    expect(result.recalls).toEqual([{ id, text: FILE_TEXT }]);
    // The same id as Dense's own recall ids: call id, (canonical) tool and original text.
    const block = toolResponseBlock({ callId: 'r1', toolName: 'read_file', result: FILE_TEXT });
    expect(id).toBe(recallIdOfResponse(block));
  });

  it('#24.2 the pointer bytes are deterministic: same request, same bytes; sticky and repeated', () => {
    const body = anthropicBody(claudeSession(2));
    const a = densifyRequest(densifyOptions(body)).body;
    const b = densifyRequest(densifyOptions(body)).body;
    expect(a.equals(b)).toBe(true);
    const store = new ConversationStore();
    const first = densifyRequest(densifyOptions(body, { store, now: 0 }));
    const later = densifyRequest(
      densifyOptions(anthropicBody(claudeSession(3)), { store, now: 1000 }),
    );
    expect(pointedId(later.body.toString())).toBe(pointedId(first.body.toString()));
    // A sticky pointer is sent again but kept once: only new pointers carry an original.
    expect(later.recalls).toEqual([]);
  });

  it('#24.2 Codex: a stale cat names its own recall id', () => {
    const result = densifyRequest(densifyOptions(codexBody(3), { api: 'openai-responses' }));
    expect(result.recalls).toHaveLength(1);
    expect(pointedId(result.body.toString())).toBe(result.recalls[0]?.id);
  });

  it('#24.2 a token count adds no original (it sends only sticky pointers)', () => {
    const result = densifyRequest(
      densifyOptions(anthropicBody(claudeSession(2)), { readOnly: true }),
    );
    expect(result.recalls).toEqual([]);
  });
});

describe('dense proxy keeps what it points', () => {
  it('#24.2 a request through the proxy names an id whose original is kept byte-exactly before it goes out', async () => {
    const kept: string[] = [];
    const dir = await mkdtemp(path.join(tmpdir(), 'dense-proxy-recall-'));
    const recall = new RecallArchive({ dir });
    const upstream = await stub((seen, res) => {
      const id = pointedId(seen.body.toString()) ?? '';
      void recall.lookup(id).then((found) => {
        kept.push(found.kind);
        res.end('{}');
      });
    });
    const proxy = await proxyTo(upstream.url, { recall });
    const body = anthropicBody(claudeSession(2, { readContent: AWKWARD }));
    await send(proxy.url, { path: '/v1/messages', body });
    const id = pointedId(upstream.seen[0]?.body.toString() ?? '');
    expect(id).toMatch(/^r[0-9a-f]{10}$/);
    expect(kept).toEqual(['found']);
    const found = await proxy.recall.lookup(id ?? '');
    expect(found.kind === 'found' && found.bytes.equals(Buffer.from(AWKWARD, 'utf8'))).toBe(true);
    await rm(dir, { recursive: true, force: true });
  });

  it('#24.2 text-block results are kept as the model saw them (blocks joined by newlines)', async () => {
    const upstream = await stub((_, res) => res.end('{}'));
    const proxy = await proxyTo(upstream.url);
    const blocks = [
      { type: 'text', text: `${FILE_TEXT}\r\nfirst` },
      { type: 'text', text: 'second — ✓' },
    ];
    const body = anthropicBody(claudeSession(2, { readContent: blocks }));
    await send(proxy.url, { path: '/v1/messages', body });
    const found = await proxy.recall.lookup(
      pointedId(upstream.seen[0]?.body.toString() ?? '') ?? '',
    );
    expect(found.kind === 'found' && found.bytes.toString('utf8')).toBe(
      `${FILE_TEXT}\r\nfirst\nsecond — ✓`,
    );
  });
});
