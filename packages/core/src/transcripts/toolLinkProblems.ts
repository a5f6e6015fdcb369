/**
 * Checks the invariants every importer promises about tool traffic, so callers (tests, replay) can
 * trust an imported history: call ids are unique, each response answers one earlier call under the
 * call's name, no call is answered twice, and tool entries hold only responses.
 */
import type { IContent } from '../services/history/IContent.js';

/** Human-readable problems, empty when the history is well linked. */
export function toolLinkProblems(contents: readonly IContent[]): string[] {
  const problems: string[] = [];
  const calls = new Map<string, { name: string; entry: number }>();
  const answered = new Set<string>();
  contents.forEach((entry, index) => {
    for (const block of entry.blocks) {
      if (block.type === 'tool_call') {
        if (calls.has(block.id))
          problems.push(`entry ${index}: call id '${block.id}' is used twice`);
        calls.set(block.id, { name: block.name, entry: index });
      } else if (block.type === 'tool_response') {
        const call = calls.get(block.callId);
        if (entry.speaker !== 'tool')
          problems.push(`entry ${index}: a ${entry.speaker} entry holds a tool response`);
        if (call === undefined || call.entry >= index) {
          problems.push(`entry ${index}: response to '${block.callId}' has no earlier call`);
        } else if (call.name !== block.toolName) {
          problems.push(
            `entry ${index}: response names '${block.toolName}', its call '${call.name}'`,
          );
        }
        if (answered.has(block.callId))
          problems.push(`entry ${index}: call '${block.callId}' is answered twice`);
        answered.add(block.callId);
      } else if (entry.speaker === 'tool') {
        problems.push(`entry ${index}: a tool entry holds a ${block.type} block`);
      }
    }
  });
  return problems;
}
