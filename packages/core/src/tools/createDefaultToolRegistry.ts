/** The registry with every built-in tool, and a ToolContext with Node's ports by default. */
import { TodoStore } from '../services/todo/TodoStore.js';
import { deleteLineRangeTool } from './file/deleteLineRangeTool.js';
import { insertAtLineTool } from './file/insertAtLineTool.js';
import { readFileTool } from './file/readFileTool.js';
import { readLineRangeTool } from './file/readLineRangeTool.js';
import { readManyFilesTool } from './file/readManyFilesTool.js';
import { replaceTool } from './file/replaceTool.js';
import { writeFileTool } from './file/writeFileTool.js';
import { nodeFileSystem } from './ports/nodeFileSystem.js';
import { nodeShellRunner } from './ports/nodeShellRunner.js';
import { globTool } from './search/globTool.js';
import { grepTool } from './search/grepTool.js';
import { listDirectoryTool } from './search/listDirectoryTool.js';
import { recallTool } from './recall/recallTool.js';
import { runShellCommandTool } from './shell/runShellCommandTool.js';
import type { ToolContext } from './Tool.js';
import { todoReadTool } from './todo/todoReadTool.js';
import { todoWriteTool } from './todo/todoWriteTool.js';
import { ToolRegistry } from './ToolRegistry.js';

/** A new registry (with its own "always" approvals) holding all built-in tools. */
export function createDefaultToolRegistry(): ToolRegistry {
  return new ToolRegistry()
    .register(readFileTool)
    .register(readLineRangeTool)
    .register(readManyFilesTool)
    .register(writeFileTool)
    .register(replaceTool)
    .register(insertAtLineTool)
    .register(deleteLineRangeTool)
    .register(runShellCommandTool)
    .register(grepTool)
    .register(globTool)
    .register(listDirectoryTool)
    .register(todoWriteTool)
    .register(todoReadTool)
    .register(recallTool);
}

/**
 * A ToolContext: `workspaceRoot` is required; `fs`, `shell` and `todoStore` default to Node's
 * file system, Node's shell runner and a new, empty TodoStore.
 */
export function createToolContext(
  options: Partial<ToolContext> & { readonly workspaceRoot: string },
): ToolContext {
  return {
    ...options,
    fs: options.fs ?? nodeFileSystem,
    shell: options.shell ?? nodeShellRunner,
    todoStore: options.todoStore ?? new TodoStore(),
  };
}
