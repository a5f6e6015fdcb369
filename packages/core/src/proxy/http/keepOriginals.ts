/** The recall archive's side of a request: originals kept before the reply names them. */
import type { OriginalsToKeep } from '../../gateway/state/SharedConversations.js';
import { errorMessage } from '../../utils/errors.js';
import type { DensifyResult } from '../densify/DensifyResult.js';
import type { ProxyContext } from './proxyContext.js';
import { recallOf } from './userRecall.js';

/** The request's originals and the archive (the user's) they go to; undefined when none. */
export function originalsOf(
  ctx: ProxyContext,
  result: Pick<DensifyResult, 'conversationId' | 'recalls'>,
  user: string | undefined,
): OriginalsToKeep | undefined {
  if (result.recalls.length === 0 || result.conversationId === undefined) return undefined;
  const archive = recallOf(ctx, user);
  return { archive, conversationId: result.conversationId, entries: result.recalls };
}

/** A pointer must not reach the model before its original can be recalled; failures are logged. */
export async function keepOriginals(
  ctx: ProxyContext,
  originals: OriginalsToKeep | undefined,
): Promise<void> {
  if (originals === undefined) return;
  try {
    await originals.archive.put(originals.conversationId, originals.entries);
  } catch (error) {
    ctx.options.log?.(`dense proxy: could not keep originals for recall (${errorMessage(error)})`);
  }
}

/**
 * Keeps the request's originals now, or, when a shared store saves its conversation (`shared`, the
 * id it saves under), hands them back to be kept with that save (`requestSettlement`).
 */
export async function keepOriginalsOrDefer(
  ctx: ProxyContext,
  result: Pick<DensifyResult, 'conversationId' | 'recalls'>,
  user: string | undefined,
  shared: string | undefined,
): Promise<OriginalsToKeep | undefined> {
  const originals = originalsOf(ctx, result, user);
  if (ctx.options.shared !== undefined && shared !== undefined) return originals;
  await keepOriginals(ctx, originals);
  return undefined;
}
