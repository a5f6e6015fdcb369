/**
 * The read a shell tool call makes, read from its `command` parameter: a call that only prints
 * one file (`cat`, `nl`, `head`, `sed -n`, `tail`) and the file line its output starts at
 * (`shellReadStart`). Whatever reads such an output by its lines (a compaction summary's outline,
 * a stale read's pointer) numbers them from there. Pure; parameters are untrusted.
 */
import type { ToolCallBlock } from '../../../services/history/IContent.js';
import { shellReadStart } from '../../../shell/shellReadStart.js';
import { toolKindOf } from './compress/toolSummaryFacts.js';
import { stringParameter } from './toolParameters.js';

/** The shell read `call` makes; undefined when it is not a shell call or not a read of one file. */
export function shellReadOfCall(
  call: ToolCallBlock | undefined,
): { readonly firstLine: number | null } | undefined {
  if (call === undefined || toolKindOf(call.name, call.parameters) !== 'shell') return undefined;
  const command = stringParameter(call.parameters, 'command');
  return command === undefined ? undefined : shellReadStart(command);
}
