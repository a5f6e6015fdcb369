/** Zod validation issues as one message the model can act on: which field, what was expected. */
import type { z } from 'zod';
import type { ToolSchema } from '../providers/IProvider.js';

function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    out += typeof key === 'number' ? `[${key}]` : `${out === '' ? '' : '.'}${String(key)}`;
  }
  return out === '' ? '(parameters)' : out;
}

function formatIssue(issue: z.core.$ZodIssue): string {
  const message = issue.message.replace(/^Invalid input: /, '');
  const missing = issue.code === 'invalid_type' && message.endsWith('received undefined');
  const text = missing ? `is required (${message.replace(/, received undefined$/, '')})` : message;
  return `${formatPath(issue.path)}: ${text}`;
}

function propertyType(schema: unknown): string {
  if (typeof schema !== 'object' || schema === null) return 'value';
  const node = schema as { type?: unknown; items?: unknown };
  if (node.type === 'array') return `${propertyType(node.items)}[]`;
  return typeof node.type === 'string' ? node.type : 'value';
}

/** `{file_path: string, offset?: integer}` from a tool's JSON schema. */
export function describeParameters(schema: ToolSchema): string {
  const properties = (schema.parameters.properties ?? {}) as Record<string, unknown>;
  const required = new Set((schema.parameters.required ?? []) as readonly string[]);
  const fields = Object.entries(properties).map(
    ([name, value]) => `${name}${required.has(name) ? '' : '?'}: ${propertyType(value)}`,
  );
  return `{${fields.join(', ')}}`;
}

export function formatValidationError(schema: ToolSchema, error: z.ZodError): string {
  const issues = error.issues.map(formatIssue).join('; ');
  return `Invalid parameters for ${schema.name}: ${issues}. Expected ${describeParameters(schema)}.`;
}
