import { describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '@dense/core';
import { ApprovalBroker } from './ApprovalBroker.js';

const request = (callId: string, signal?: AbortSignal): ApprovalRequest => ({
  toolName: 'write_file',
  kind: 'write',
  callId,
  description: `Write ${callId}`,
  parameters: {},
  ...(signal ? { signal } : {}),
});

describe('ApprovalBroker', () => {
  it('shows one request at a time and resolves each with its answer', async () => {
    const broker = new ApprovalBroker();
    const shown: (string | undefined)[] = [];
    broker.events.on('changed', (pending) => shown.push(pending?.request.callId));
    const first = broker.approve(request('a'));
    const second = broker.approve(request('b'));
    expect(broker.pending?.request.callId).toBe('a');
    broker.pending?.answer('yes');
    expect(await first).toBe('yes');
    expect(broker.pending?.request.callId).toBe('b');
    broker.pending?.answer('always');
    expect(await second).toBe('always');
    expect(broker.pending).toBeUndefined();
    expect(shown).toEqual(['a', 'b', undefined]);
  });

  it('answers no when the turn is cancelled, and ignores a late answer', async () => {
    const broker = new ApprovalBroker();
    const controller = new AbortController();
    const pending = broker.approve(request('a', controller.signal));
    const entry = broker.pending;
    controller.abort();
    expect(await pending).toBe('no');
    entry?.answer('yes');
    expect(broker.pending).toBeUndefined();
  });

  it('an already cancelled request is answered no without being shown', async () => {
    const broker = new ApprovalBroker();
    const controller = new AbortController();
    controller.abort();
    expect(await broker.approve(request('a', controller.signal))).toBe('no');
    expect(broker.pending).toBeUndefined();
  });
});
