/**
 * Builds a Tool from its zod parameter schema, deriving the provider's JSON schema from the same
 * source so the two can never disagree.
 */
import { z } from 'zod';
import type { ToolSchema } from '../providers/IProvider.js';
import type { Tool, ToolContext, ToolKind, ToolResult } from './Tool.js';

export interface ToolDefinition<P> {
  readonly name: string;
  readonly description: string;
  readonly kind: ToolKind;
  readonly parameters: z.ZodType<P>;
  execute(params: P, context: ToolContext): Promise<ToolResult>;
  describe?(params: P): string;
  writesPaths?(params: P): readonly string[];
}

/** Drops what providers reject or do not need: `$schema` and the implicit safe-integer bounds. */
function cleanSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(cleanSchema);
  if (typeof node !== 'object' || node === null) return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === '$schema') continue;
    if (key === 'maximum' && value === Number.MAX_SAFE_INTEGER) continue;
    if (key === 'minimum' && value === Number.MIN_SAFE_INTEGER) continue;
    out[key] = cleanSchema(value);
  }
  return out;
}

function toJsonSchema(parameters: z.ZodType): Readonly<Record<string, unknown>> {
  return cleanSchema(z.toJSONSchema(parameters, { io: 'input' })) as Record<string, unknown>;
}

function defaultDescribe(name: string, params: unknown): string {
  const json = JSON.stringify(params) ?? '';
  return `${name} ${json.length > 200 ? `${json.slice(0, 200)}…` : json}`;
}

export function defineTool<P>(definition: ToolDefinition<P>): Tool<P> {
  const schema: ToolSchema = {
    name: definition.name,
    description: definition.description,
    parameters: toJsonSchema(definition.parameters),
  };
  return {
    name: definition.name,
    description: definition.description,
    kind: definition.kind,
    parameters: definition.parameters,
    schema,
    execute: (params, context) => definition.execute(params, context),
    describe: (params) =>
      definition.describe ? definition.describe(params) : defaultDescribe(definition.name, params),
    ...(definition.writesPaths
      ? { writesPaths: (params: P) => definition.writesPaths?.(params) ?? [] }
      : {}),
  };
}
