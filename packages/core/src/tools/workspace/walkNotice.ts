/** The sentence a walking tool adds when its walk did not cover everything. */
import { TOOL_LIMITS } from '../toolLimits.js';
import type { WalkEnd } from './walkWorkspace.js';

export function walkLimitNotice(end: WalkEnd): string | undefined {
  return end === 'entry-limit'
    ? `[The search stopped after visiting ${TOOL_LIMITS.walkMaxEntries} directory entries, so results may be incomplete; give a narrower path.]`
    : undefined;
}
