/**
 * The status line's text: `dense ▸ 41k upstream / 156k held · saved 38% · 2 compactions avoided`.
 * Plain text, one line: the saving is left out before any request was priced, the compactions
 * while there are none.
 */
import type { SessionStatus } from './sessionStatus.js';

/** Tokens as `950`, `41k`, `1.2M`. */
export function compactTokens(tokens: number): string {
  const whole = Math.round(tokens);
  if (whole < 1_000) return String(whole);
  if (whole < 999_500) return `${Math.round(whole / 1_000)}k`;
  const millions = whole / 1_000_000;
  return `${millions < 9.95 ? millions.toFixed(1).replace(/\.0$/, '') : Math.round(millions)}M`;
}

/** `saved 38%`, or `cost +3%` when Dense billed more than passing through would have. */
function savingText(status: SessionStatus): string | undefined {
  if (status.passThroughCost <= 0) return undefined;
  const percent = Math.round((1 - status.billedCost / status.passThroughCost) * 100);
  return percent >= 0 ? `saved ${percent}%` : `cost +${-percent}%`;
}

function compactionsText(avoided: number): string | undefined {
  if (avoided <= 0) return undefined;
  return `${avoided} ${avoided === 1 ? 'compaction' : 'compactions'} avoided`;
}

/** The one line for a known session (no trailing newline). */
export function formatStatusLine(status: SessionStatus): string {
  const context =
    status.context === undefined
      ? 'no reply metered yet'
      : `${compactTokens(status.context.upstreamTokens)} upstream / ${compactTokens(status.context.clientTokens)} held`;
  const parts = [context, savingText(status), compactionsText(status.compactionsAvoided)];
  return `dense ▸ ${parts.filter((part) => part !== undefined).join(' · ')}`;
}
