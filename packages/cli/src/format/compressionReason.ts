/** Why a compression did nothing, in words a user understands. */
import type { CompressionNoopReason } from '@dense/core';

const PLAIN: Readonly<Record<CompressionNoopReason, string>> = {
  'empty-history': 'the conversation is empty',
  'tail-covers-all': 'the history is shorter than the recent part that is always kept',
  'too-few-to-compress': 'too few older messages to be worth summarising yet',
  'already-under-target': 'the history is already smaller than the compression target',
};

export function plainNoopReason(reason: string | undefined): string {
  if (reason === undefined) return 'nothing needed compressing';
  return (PLAIN as Readonly<Record<string, string>>)[reason] ?? reason;
}
