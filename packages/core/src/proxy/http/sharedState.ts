/**
 * A request's conversation state on a shared store (`gateway/state/`): loaded before anything is
 * decided, saved once the request's decisions and the reply's calibration are in, before the
 * client can send its next request. When another replica saved first, the state is loaded again
 * and the request's decisions are redone on it (its bytes are already sent; its effect on the state
 * is not lost). Without a shared store these do nothing.
 */
import { requestCacheProvider } from '../../cache/cacheRules.js';
import type { EarlyLoad, OriginalsToKeep } from '../../gateway/state/SharedConversations.js';
import { undecidedResult, type DensifyResult } from '../densify/DensifyResult.js';
import type { ForwardOutcome } from '../meter/forwardOutcome.js';
import { keepOriginals } from './keepOriginals.js';
import type { ProxyContext } from './proxyContext.js';
import type { WireApi } from '../wire/wireHistory.js';

export const STORE_UNAVAILABLE = 'the shared state store did not answer in time';

/** Conflicts redone before the request's effect is given up (logged). */
export const SAVE_ATTEMPTS = 3;

/**
 * False when the shared store did not answer: the request goes out unchanged. `early`: the
 * request's load sent while its body arrived (`earlyLoads.ts`).
 */
export async function loadShared(
  ctx: ProxyContext,
  id: string | undefined,
  early?: EarlyLoad,
): Promise<boolean> {
  const shared = ctx.options.shared;
  if (shared === undefined || id === undefined) return true;
  return (await shared.load(id, ctx.store, ctx.stats, early)) !== 'unavailable';
}

/**
 * Saves the state `redo` rebuilds on a newer copy when another replica saved first, and keeps the
 * request's `originals` for recall: in the save's round trip when the store carries them, beside it
 * otherwise (and alone without a shared store).
 */
export async function saveShared(
  ctx: ProxyContext,
  id: string | undefined,
  redo: () => void,
  originals?: OriginalsToKeep,
): Promise<void> {
  const shared = ctx.options.shared;
  if (shared === undefined || id === undefined) return keepOriginals(ctx, originals);
  const carried = originals !== undefined && shared.carries(originals);
  const [first] = await Promise.all([
    shared.save(id, ctx.store, ctx.stats, carried ? originals : undefined),
    carried ? undefined : keepOriginals(ctx, originals),
  ]);
  if (carried && first === 'unavailable')
    ctx.options.log?.(`dense proxy: could not keep originals for recall (${STORE_UNAVAILABLE})`);
  for (let attempt = 1, saved = first; saved === 'conflict'; attempt++) {
    if (attempt === SAVE_ATTEMPTS) {
      ctx.options.log?.(
        `dense proxy: conversation ${id} changed on another replica ${SAVE_ATTEMPTS} times while this request was saved; its state is left as the other replica wrote it`,
      );
      return;
    }
    if ((await shared.load(id, ctx.store, ctx.stats)) === 'unavailable') return;
    redo();
    saved = await shared.save(id, ctx.store, ctx.stats);
  }
}

/**
 * The request decided (`decide`) on its conversation's state as the shared store holds it, or
 * sent as it came when the store does not answer (nothing decided). `shared`: the conversation
 * whose state is to be saved after the request (none for a read-only request, e.g. a token
 * count, which reads the state and changes nothing).
 */
export async function decideOnShared(
  ctx: ProxyContext,
  input: {
    readonly api: WireApi;
    readonly body: Buffer;
    readonly id: string | undefined;
    readonly readOnly: boolean;
    readonly decide: () => DensifyResult;
    readonly early?: EarlyLoad | undefined;
  },
): Promise<{ readonly result: DensifyResult; readonly shared: string | undefined }> {
  if (await loadShared(ctx, input.id, input.early))
    return { result: input.decide(), shared: input.readOnly ? undefined : input.id };
  return { result: unchangedForStore(input.api, input.body, input.id), shared: undefined };
}

/** A request sent as it came because the shared store did not answer (nothing decided). */
function unchangedForStore(
  api: WireApi,
  body: Buffer,
  conversationId: string | undefined,
): DensifyResult {
  const provider = requestCacheProvider(api, body.toString('latin1'));
  return { ...undecidedResult(body, conversationId, provider), unsupported: STORE_UNAVAILABLE };
}

/** When what a forwarded request leaves in its conversation is applied and saved. */
export interface RequestSettlement {
  /** For the forward, with a shared store: applies and saves before the reply's end is sent. */
  readonly beforeEnd: ((outcome: ForwardOutcome) => Promise<void>) | undefined;
  /** After the forward: applies (and saves) it, unless `beforeEnd` already did. */
  finish(outcome: ForwardOutcome): Promise<void>;
}

/**
 * `apply(outcome, redo)` leaves the request's effect in the conversation's state (`redo`: on a
 * newer copy loaded after a conflict, the request's decisions made again first). `saved.id` is the
 * conversation when its state is shared and was loaded; `saved.originals` are kept with the save
 * (before the reply's end reaches the client, so before the agent can ask for one).
 */
export function requestSettlement(
  ctx: ProxyContext,
  saved: { readonly id: string | undefined; readonly originals?: OriginalsToKeep | undefined },
  apply: (outcome: ForwardOutcome, redo: boolean) => void,
): RequestSettlement {
  const { id, originals } = saved;
  let done = false;
  const settle = async (outcome: ForwardOutcome) => {
    if (done) return;
    done = true;
    apply(outcome, false);
    await saveShared(ctx, id, () => apply(outcome, true), originals);
  };
  const shared = ctx.options.shared !== undefined && id !== undefined;
  return { beforeEnd: shared ? settle : undefined, finish: settle };
}
