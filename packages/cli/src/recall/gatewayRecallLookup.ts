/**
 * `dense recall` against a gateway: with `DENSE_PROXY_URL` set (the gateway's base URL, as the
 * client uses it, `/t/<token>` prefix or not) and the user's token in `DENSE_TOKEN` (or in the
 * URL), the original is read from the gateway's `/dense/recall/<id>`, that is from the user's own
 * archive shared by every replica. Imports nothing from `@dense/core` at run time.
 */
import type { ArchiveLookup, RecallMissingReason } from '@dense/core';
import type { RecallLookup } from './runRecall.js';

const REASONS: readonly RecallMissingReason[] = ['malformed', 'unknown', 'expired', 'evicted'];

export class GatewayRecallError extends Error {
  readonly code = 'DENSE_GATEWAY_RECALL_FAILED';
}

export function gatewayRecallLookup(
  env: NodeJS.ProcessEnv,
  fetchImpl: typeof fetch = fetch,
): RecallLookup | undefined {
  const base = env.DENSE_PROXY_URL?.trim();
  if (base === undefined || base === '') return undefined;
  const messages = new Map<string, string>();
  const token = env.DENSE_TOKEN?.trim();
  return {
    dir: base,
    async lookup(id: string): Promise<ArchiveLookup> {
      const url = `${base.replace(/\/+$/, '')}/dense/recall/${encodeURIComponent(id)}`;
      let reply: Response;
      try {
        reply = await fetchImpl(url, {
          headers: token === undefined || token === '' ? {} : { 'x-dense-token': token },
          signal: AbortSignal.timeout(10_000),
        });
      } catch (error) {
        throw new GatewayRecallError(
          `the gateway at ${base} did not answer (${error instanceof Error ? error.message : String(error)})`,
        );
      }
      if (reply.ok) return { kind: 'found', bytes: Buffer.from(await reply.arrayBuffer()) };
      const body = (await reply.json().catch(() => ({}))) as {
        reason?: unknown;
        message?: unknown;
        error?: { message?: unknown };
      };
      const reason = REASONS.find((known) => known === body.reason);
      if (reason !== undefined) {
        if (typeof body.message === 'string') messages.set(id, body.message);
        return { kind: 'missing', reason };
      }
      const said = typeof body.error?.message === 'string' ? body.error.message : reply.statusText;
      throw new GatewayRecallError(`the gateway at ${base} answered ${reply.status}: ${said}`);
    },
    missingMessage: (id, reason) => messages.get(id) ?? `recall id ${id}: ${reason}`,
  };
}
