/** The recall archive's side of a request: originals kept before the reply names them. */
import { errorMessage } from '../../utils/errors.js';
import type { DensifyResult } from '../densify/DensifyResult.js';
import type { ProxyContext } from './proxyContext.js';
import { recallOf } from './userRecall.js';

/** A pointer must not reach the model before its original can be recalled; failures are logged. */
export async function keepOriginals(
  ctx: ProxyContext,
  result: Pick<DensifyResult, 'conversationId' | 'recalls'>,
  user: string | undefined,
): Promise<void> {
  if (result.recalls.length === 0 || result.conversationId === undefined) return;
  try {
    await recallOf(ctx, user).put(result.conversationId, result.recalls);
  } catch (error) {
    ctx.options.log?.(`dense proxy: could not keep originals for recall (${errorMessage(error)})`);
  }
}
