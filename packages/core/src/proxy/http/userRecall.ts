/**
 * Which recall archive a request's originals go to and `/dense/recall/<id>` reads: the proxy's own
 * for requests without a user, one per user otherwise (so one user's recall id is unknown to
 * every other user). By default a user's archive is a folder under the proxy's own, named by a
 * hash of the user; a gateway on Redis gives its own (`userRecall`).
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import { RecallArchive } from '../../recall/RecallArchive.js';
import type { OriginalsArchive, ProxyContext } from './proxyContext.js';
import { setNewest } from '../../utils/newestFirst.js';

/** Users whose archive is held open at once (each holds only its index). */
const HELD_USERS = 256;

export function recallOf(ctx: ProxyContext, user: string | undefined): OriginalsArchive {
  if (user === undefined) return ctx.recall;
  const held = ctx.userRecalls.get(user);
  if (held !== undefined) return held;
  const made =
    ctx.options.userRecall?.(user) ??
    new RecallArchive({
      dir: path.join(
        ctx.recall.dir,
        'users',
        createHash('sha256').update(user).digest('hex').slice(0, 16),
      ),
    });
  setNewest(ctx.userRecalls, user, made, HELD_USERS);
  return made;
}
