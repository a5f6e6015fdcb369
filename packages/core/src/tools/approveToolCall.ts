/**
 * The approval step for write and shell tools: auto-approve, a remembered "always" for the tool,
 * or the context's callback. Without a callback such calls are denied, never silently run.
 */
import type { Tool, ToolContext, ToolErrorResult } from './Tool.js';
import { toolFailure } from './Tool.js';

export function needsApproval(tool: Tool): boolean {
  return tool.kind === 'write' || tool.kind === 'shell';
}

export interface ApprovalInput {
  readonly tool: Tool;
  readonly callId: string;
  readonly params: unknown;
  readonly context: ToolContext;
  /** Tools the user answered "always" for in this session; updated here. */
  readonly alwaysApproved: Set<string>;
}

/** Undefined when the call may run; otherwise the TOOL_DENIED result. */
export async function approveToolCall(input: ApprovalInput): Promise<ToolErrorResult | undefined> {
  const { tool, context } = input;
  if (!needsApproval(tool) || context.autoApprove === true || input.alwaysApproved.has(tool.name)) {
    return undefined;
  }
  if (context.approve === undefined) {
    return toolFailure(
      'TOOL_DENIED',
      `${tool.name} needs the user's approval, and this session has no way to ask for it; nothing was done. The user can enable auto-approve to allow ${tool.kind} tools.`,
    );
  }
  const decision = await context.approve({
    toolName: tool.name,
    kind: tool.kind,
    callId: input.callId,
    description: tool.describe(input.params),
    parameters: input.params,
    ...(context.signal === undefined ? {} : { signal: context.signal }),
  });
  switch (decision) {
    case 'always':
      input.alwaysApproved.add(tool.name);
      return undefined;
    case 'yes':
      return undefined;
    case 'no':
      return toolFailure(
        'TOOL_DENIED',
        `The user declined this ${tool.name} call; nothing was done. Ask the user how to proceed, or take a different approach.`,
      );
  }
}
