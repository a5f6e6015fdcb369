/**
 * An AgentSession as a user runs it, for end-to-end tests: the default tools working in
 * `workspace` (auto-approved), a scripted model, the given session settings, and the prompt files
 * served from memory.
 */
import { AgentSession } from '../session/AgentSession.js';
import { registryToolExecutor } from '../session/registryToolExecutor.js';
import { SettingsService } from '../settings/SettingsService.js';
import type { EphemeralSettings } from '../settings/settingsRegistry.js';
import {
  createDefaultToolRegistry,
  createToolContext,
} from '../tools/createDefaultToolRegistry.js';
import { staticPromptResolver } from './compressionContext.js';
import type { ScriptedProvider } from './ScriptedProvider.js';

export function workspaceSession(
  workspace: string,
  provider: ScriptedProvider,
  settings: EphemeralSettings,
): AgentSession {
  const toolContext = createToolContext({ workspaceRoot: workspace, autoApprove: true });
  return new AgentSession({
    settings: new SettingsService({ session: settings }),
    workspaceRoot: workspace,
    provider: () => provider,
    tools: registryToolExecutor(createDefaultToolRegistry(), toolContext),
    todoStore: toolContext.todoStore,
    promptResolver: staticPromptResolver(),
    promptBaseDir: '/prompts',
  });
}
