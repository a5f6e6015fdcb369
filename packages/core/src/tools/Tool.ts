/**
 * The contract between the turn loop and the agent's tools: what a tool declares, the context it
 * runs in, and the result it returns. Tool failures are data (`kind: 'error'`), never throws.
 */
import type { z } from 'zod';
import type { ToolSchema } from '../providers/IProvider.js';
import type { RecallStore } from '../services/recall/RecallStore.js';
import type { TodoStore } from '../services/todo/TodoStore.js';
import type { FileSystem } from './ports/FileSystem.js';
import type { ShellRunner } from './ports/ShellRunner.js';
import type { ToolErrorCode } from './toolErrorCodes.js';

/** What a tool may do; write and shell tools need the user's approval. */
export type ToolKind = 'read' | 'write' | 'shell' | 'other';

export type ToolResult =
  | {
      readonly kind: 'success';
      /** What the model sees. */
      readonly output: string;
      /** A one-line account for the UI, e.g. "Read 120 lines from src/a.ts". */
      readonly summary?: string;
    }
  | {
      readonly kind: 'error';
      readonly code: ToolErrorCode;
      /** What went wrong and what the model can do about it. */
      readonly message: string;
      /** Output produced before the failure, if any. */
      readonly partialOutput?: string;
    };

export type ToolErrorResult = Extract<ToolResult, { kind: 'error' }>;

export type ApprovalDecision = 'yes' | 'no' | 'always';

export interface ApprovalRequest {
  readonly toolName: string;
  readonly kind: ToolKind;
  readonly callId: string;
  /** A one-line description of what the call will do, for the confirmation prompt. */
  readonly description: string;
  /** The validated parameters. */
  readonly parameters: unknown;
  readonly signal?: AbortSignal;
}

export interface ToolContext {
  /** Absolute path; every path parameter must stay inside it. */
  readonly workspaceRoot: string;
  readonly signal?: AbortSignal;
  readonly fs: FileSystem;
  readonly shell: ShellRunner;
  readonly todoStore: TodoStore;
  /** Where `recall` finds originals of pruned or summarized results. */
  readonly recallStore?: RecallStore;
  /** Asked before write and shell tools run, unless `autoApprove`. Without it they are denied. */
  readonly approve?: (request: ApprovalRequest) => Promise<ApprovalDecision>;
  readonly autoApprove?: boolean;
}

/**
 * One tool. `parameters` validates what the model sent; `execute` receives the validated value and
 * returns a result — it should not throw, but the registry turns a throw into an error result.
 */
export interface Tool<P = unknown> {
  readonly name: string;
  readonly description: string;
  readonly kind: ToolKind;
  readonly parameters: z.ZodType<P>;
  /** The JSON schema the provider sends to the model (derived from `parameters`). */
  readonly schema: ToolSchema;
  execute(params: P, context: ToolContext): Promise<ToolResult>;
  /** The approval prompt's description of a call. */
  describe(params: P): string;
  /**
   * The workspace paths a call would write, checked before the user is asked to approve it (a
   * call that must fail anyway is not put to the user).
   */
  writesPaths?(params: P): readonly string[];
}

export function toolSuccess(output: string, summary?: string): ToolResult {
  return summary === undefined ? { kind: 'success', output } : { kind: 'success', output, summary };
}

export function toolFailure(
  code: ToolErrorCode,
  message: string,
  partialOutput?: string,
): ToolErrorResult {
  return partialOutput === undefined
    ? { kind: 'error', code, message }
    : { kind: 'error', code, message, partialOutput };
}
