/**
 * What the agent's components may know about the running session: the live settings (`settings`,
 * read by registry key), the effective context window, and a few facts about the session (`config`).
 */
import type { SettingsService } from '../settings/SettingsService.js';

export interface RuntimeConfig {
  getWorkspaceRoot(): string;
  /** Where this session is recorded in full, when it is. */
  getTranscriptPath(): string | undefined;
}

export interface AgentRuntimeContext {
  /** The live settings: `get(key)` typed by the registry, and the writes `/set` and profiles make. */
  readonly settings: SettingsService;
  /**
   * The effective context window in tokens: the `context-limit` setting, else the model's known
   * window, else `FALLBACK_CONTEXT_LIMIT`. The one setting-derived value that is computed.
   */
  contextLimit(): number;
  readonly config: RuntimeConfig;
}

/** Who is talking to whom in this session. */
export interface AgentRuntimeState {
  readonly sessionId: string;
  readonly provider: string;
  readonly model: string;
}
