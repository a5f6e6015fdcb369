import { describe, expect, it } from 'vitest';
import { ArchiveRecallStore } from './ArchiveRecallStore.js';

describe('ArchiveRecallStore', () => {
  it('#35.1 gives an archived original as text; a missing or unreadable one is a lookup result, never a throw', async () => {
    const store = new ArchiveRecallStore({
      lookup: (id) =>
        Promise.resolve(
          id === 'r0123456789'
            ? { kind: 'found', bytes: Buffer.from('the original ✓') }
            : { kind: 'missing', reason: 'expired' },
        ),
    });
    expect(await store.lookup('r0123456789')).toEqual({
      kind: 'found',
      content: 'the original ✓',
    });
    const missing = await store.lookup('r9999999999');
    expect(missing.kind).toBe('unknown-id');
    if (missing.kind !== 'found') expect(missing.message).toContain('r9999999999');
    const broken = new ArchiveRecallStore({ lookup: () => Promise.reject(new Error('EACCES')) });
    const failed = await broken.lookup('r0123456789');
    expect(failed.kind).toBe('unavailable');
    if (failed.kind !== 'found') expect(failed.message).toContain('EACCES');
  });
});
