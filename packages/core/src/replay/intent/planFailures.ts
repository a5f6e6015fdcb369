/**
 * The failed tool results of a recording (`isFailure`), each with its signature: the failures
 * the agent had seen before any later model call. Results with no text but the shell tool's
 * framing are left out (nothing to show). Independent of the compression code. Pure.
 */
import type { IContent } from '../../services/history/IContent.js';
import { failureSignature, isFailure, isShellResult, resultText } from './failureSignature.js';
import { recordedResults } from './recordedResults.js';

export interface RecordedFailure {
  readonly position: number;
  /** The recorded entry holding the result: sent unchanged, it shows the output whole. */
  readonly entry: IContent;
  readonly signature: string;
}

/** Every failure of the recording, oldest first. */
export function planFailures(contents: readonly IContent[]): readonly RecordedFailure[] {
  const failures: RecordedFailure[] = [];
  for (const { block, position, entry } of recordedResults(contents)) {
    const text = resultText(block);
    if (!isFailure(block, text)) continue;
    const shell = isShellResult(block);
    const message = shell || block.error === undefined ? text : block.error;
    const signature = failureSignature(message, shell);
    if (signature !== '') failures.push({ position, entry, signature });
  }
  return failures;
}
