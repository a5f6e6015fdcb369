/**
 * Test support for the tool tests: a real temp workspace (with a sibling "outside" directory to
 * escape to), the default registry, and helpers that run a call and unpack the response.
 * Never imported by production code.
 */
import { mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import type { ToolResponseBlock } from '../../services/history/IContent.js';
import { TodoStore } from '../../services/todo/TodoStore.js';
import { createDefaultToolRegistry, createToolContext } from '../createDefaultToolRegistry.js';
import type { ToolContext } from '../Tool.js';
import type { ToolErrorCode } from '../toolErrorCodes.js';
import type { ToolRegistry } from '../ToolRegistry.js';

export interface ToolHarness {
  /** Real path of the workspace root. */
  readonly root: string;
  /** Real path of a directory next to the workspace, holding `secret.txt`. */
  readonly outside: string;
  readonly registry: ToolRegistry;
  readonly context: ToolContext;
  call(
    name: string,
    parameters: unknown,
    context?: Partial<ToolContext>,
  ): Promise<ToolResponseBlock>;
  write(relative: string, content: string | Uint8Array): Promise<string>;
  read(relative: string): Promise<string>;
  link(target: string, relative: string): Promise<void>;
  cleanup(): Promise<void>;
}

export async function createToolHarness(): Promise<ToolHarness> {
  const base = await realpath(await mkdtemp(path.join(os.tmpdir(), 'dense-tools-')));
  const root = path.join(base, 'ws');
  const outside = path.join(base, 'outside');
  await mkdir(root);
  await mkdir(outside);
  await writeFile(path.join(outside, 'secret.txt'), 'secret\n');
  const registry = createDefaultToolRegistry();
  const context = createToolContext({
    workspaceRoot: root,
    autoApprove: true,
    todoStore: new TodoStore(),
  });
  let next = 0;
  const harness: ToolHarness = {
    root,
    outside,
    registry,
    context,
    call: (name, parameters, overrides) =>
      registry.execute(
        { type: 'tool_call', id: `call-${next++}`, name, parameters },
        { ...context, ...overrides },
      ),
    async write(relative, content) {
      const file = path.join(root, relative);
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, content);
      return file;
    },
    read: (relative) => readFile(path.join(root, relative), 'utf8'),
    async link(target, relative) {
      const file = path.join(root, relative);
      await mkdir(path.dirname(file), { recursive: true });
      await symlink(target, file);
    },
    cleanup: () => rm(base, { recursive: true, force: true }),
  };
  return harness;
}

/** The output of a successful response (fails the test otherwise). */
export function okOutput(response: ToolResponseBlock): string {
  expect(response.error, `expected success, got: ${response.error}`).toBeUndefined();
  expect(typeof response.result).toBe('string');
  return response.result as string;
}

/** The error text of a failed response, after checking its code. */
export function errorText(response: ToolResponseBlock, code: ToolErrorCode): string {
  expect(response.error, `expected ${code}, got result: ${String(response.result)}`).toBeDefined();
  expect(response.error?.startsWith(`${code}: `), `expected ${code}, got: ${response.error}`).toBe(
    true,
  );
  return response.error as string;
}
