/**
 * The tools a session offers and the one entry point the turn loop uses to run a call. `execute`
 * never throws: unknown tools, malformed or invalid parameters, denial, cancellation and crashes
 * all come back as a tool_response with `error` set.
 */
import type { ToolSchema } from '../providers/IProvider.js';
import {
  toolResponseBlock,
  type ToolCallBlock,
  type ToolResponseBlock,
} from '../services/history/IContent.js';
import { closestMatches } from '../utils/closestMatches.js';
import { DenseError, errorMessage } from '../utils/errors.js';
import { approveToolCall } from './approveToolCall.js';
import { isToolError, resolveToolPath } from './workspace/toolPaths.js';
import { formatValidationError } from './formatValidationError.js';
import {
  toolFailure,
  type Tool,
  type ToolContext,
  type ToolErrorResult,
  type ToolResult,
} from './Tool.js';

export class DuplicateToolError extends DenseError {
  readonly code = 'DUPLICATE_TOOL';
}

/** A ToolResult as the block recorded in history (error: "<code>: <message>"). */
export function toToolResponse(call: ToolCallBlock, result: ToolResult): ToolResponseBlock {
  switch (result.kind) {
    case 'success':
      return toolResponseBlock({ callId: call.id, toolName: call.name, result: result.output });
    case 'error':
      return toolResponseBlock({
        callId: call.id,
        toolName: call.name,
        result: result.partialOutput ?? '',
        error: `${result.code}: ${result.message}`,
      });
  }
}

/** What the model sent as parameters, as an object — or why it is not one. */
function asParameterObject(
  raw: unknown,
  toolName: string,
): { readonly kind: 'object'; readonly value: object } | ToolErrorResult {
  if (raw === undefined || (typeof raw === 'string' && raw.trim() === '')) {
    return { kind: 'object', value: {} };
  }
  if (typeof raw === 'object' && raw !== null && !Array.isArray(raw)) {
    return { kind: 'object', value: raw };
  }
  const kind = raw === null ? 'null' : Array.isArray(raw) ? 'an array' : `a ${typeof raw}`;
  const sample = typeof raw === 'string' ? `: ${JSON.stringify(raw.slice(0, 200))}` : '';
  const hint = typeof raw === 'string' ? ' (the arguments were probably not valid JSON)' : '';
  return toolFailure(
    'INVALID_PARAMETERS',
    `Parameters for ${toolName} must be a JSON object, but ${kind} was received${hint}${sample}. Send the arguments as one JSON object.`,
  );
}

function unexpectedFailure(toolName: string, error: unknown, signal?: AbortSignal): ToolResult {
  if (signal?.aborted === true) {
    return toolFailure('ABORTED', `${toolName} was cancelled before it finished.`);
  }
  return toolFailure(
    'TOOL_EXECUTION_FAILED',
    `${toolName} failed unexpectedly: ${errorMessage(error)}. You may retry, or try a different approach.`,
  );
}

function isAborted(context: ToolContext): boolean {
  return context.signal?.aborted === true;
}

export class ToolRegistry {
  private readonly tools = new Map<string, Tool>();
  private readonly alwaysApproved = new Set<string>();

  /** @throws DuplicateToolError when a tool with that name is already registered. */
  register<P>(tool: Tool<P>): this {
    if (this.tools.has(tool.name)) {
      throw new DuplicateToolError(`A tool named "${tool.name}" is already registered.`);
    }
    this.tools.set(tool.name, tool);
    return this;
  }

  get(name: string): Tool | undefined {
    return this.tools.get(name);
  }

  list(): readonly Tool[] {
    return [...this.tools.values()];
  }

  /** The JSON schemas to send to the provider, in registration order. */
  schemas(): readonly ToolSchema[] {
    return this.list().map((tool) => tool.schema);
  }

  /** Forgets every "always" answer (e.g. when the session's approval mode changes). */
  resetApprovals(): void {
    this.alwaysApproved.clear();
  }

  /** Runs one call. Never rejects. */
  async execute(call: ToolCallBlock, context: ToolContext): Promise<ToolResponseBlock> {
    return toToolResponse(call, await this.run(call, context));
  }

  private async run(call: ToolCallBlock, context: ToolContext): Promise<ToolResult> {
    const tool = this.tools.get(call.name);
    if (!tool) return this.unknownTool(call.name);
    const raw = asParameterObject(call.parameters, tool.name);
    if (raw.kind === 'error') return raw;
    const parsed = tool.parameters.safeParse(raw.value);
    if (!parsed.success) {
      return toolFailure('INVALID_PARAMETERS', formatValidationError(tool.schema, parsed.error));
    }
    try {
      if (isAborted(context)) return unexpectedFailure(tool.name, null, context.signal);
      const outside = await firstPathOutside(tool.writesPaths?.(parsed.data) ?? [], context);
      if (outside) return outside;
      const denied = await approveToolCall({
        tool,
        callId: call.id,
        params: parsed.data,
        context,
        alwaysApproved: this.alwaysApproved,
      });
      if (denied) return denied;
      if (isAborted(context)) return unexpectedFailure(tool.name, null, context.signal);
      return await tool.execute(parsed.data, context);
    } catch (error) {
      return unexpectedFailure(tool.name, error, context.signal);
    }
  }

  private unknownTool(name: string): ToolResult {
    const names = [...this.tools.keys()];
    const close = closestMatches(name, names);
    const suggestion = close.length > 0 ? ` Did you mean ${close.join(' or ')}?` : '';
    return toolFailure(
      'TOOL_NOT_FOUND',
      `There is no tool named "${name}".${suggestion} Available tools: ${names.join(', ')}.`,
    );
  }
}

/** The PATH_OUTSIDE_WORKSPACE result for the first path outside the workspace, if any. */
async function firstPathOutside(
  paths: readonly string[],
  context: ToolContext,
): Promise<ToolResult | undefined> {
  for (const p of paths) {
    const resolved = await resolveToolPath(context, p);
    if (isToolError(resolved)) return resolved;
  }
  return undefined;
}
