/**
 * An AgentSession whose tools are scripted: `run_shell_command` answers with whatever `output`
 * returns for the call's parameters, and `recall` is the real tool over an in-memory recall store
 * fed by every entry the turn loop records (as the CLI's fallback store is).
 */
import { AgentSession } from '../session/AgentSession.js';
import type { ToolExecutor } from '../core/chatTypes.js';
import { toolResponseBlock, type ToolCallBlock } from '../services/history/IContent.js';
import type { TokenCounter } from '../services/history/TokenCounter.js';
import { InMemoryRecallStore } from '../services/recall/RecallStore.js';
import { SettingsService } from '../settings/SettingsService.js';
import type { EphemeralSettings } from '../settings/settingsRegistry.js';
import { createToolContext } from '../tools/createDefaultToolRegistry.js';
import { recallTool } from '../tools/recall/recallTool.js';
import { ToolRegistry } from '../tools/ToolRegistry.js';
import { staticPromptResolver } from './compressionContext.js';
import type { ScriptedProvider } from './ScriptedProvider.js';

export interface ScriptedToolSessionOptions {
  readonly provider: ScriptedProvider;
  readonly settings: EphemeralSettings;
  /** The output of a `run_shell_command` call, from its parameters. */
  readonly output: (parameters: unknown) => string;
  readonly tokenCounter?: TokenCounter;
}

export function scriptedToolSession(options: ScriptedToolSessionOptions): AgentSession {
  const recallStore = new InMemoryRecallStore();
  const registry = new ToolRegistry().register(recallTool);
  const context = createToolContext({ workspaceRoot: '/workspace', recallStore });
  const tools: ToolExecutor = {
    schemas: () => registry.schemas(),
    execute: (call: ToolCallBlock) =>
      call.name === 'run_shell_command'
        ? Promise.resolve(
            toolResponseBlock({
              callId: call.id,
              toolName: call.name,
              result: options.output(call.parameters),
            }),
          )
        : registry.execute(call, context),
  };
  const session = new AgentSession({
    settings: new SettingsService({ session: options.settings }),
    workspaceRoot: '/workspace',
    provider: () => options.provider,
    tools,
    promptResolver: staticPromptResolver(),
    promptBaseDir: '/prompts',
    ...(options.tokenCounter ? { tokenCounter: options.tokenCounter } : {}),
  });
  session.chat.events.on('contentRecorded', ({ content }) => recallStore.record(content));
  return session;
}
