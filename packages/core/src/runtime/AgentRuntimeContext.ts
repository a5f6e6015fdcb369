/**
 * What the agent's components may know about the running session: the settings (`settings`, read
 * by registry key, and `ephemerals`, the spec's typed accessors generated from the registry), the
 * effective context window, and a few facts about the session (`config`).
 */
import type { SettingsReader } from '../settings/SettingsReader.js';
import type { SettingsService } from '../settings/SettingsService.js';
import type { EphemeralAccessors } from './ephemeralAccessors.js';

export type { EphemeralAccessors } from './ephemeralAccessors.js';

export interface RuntimeConfig {
  getWorkspaceRoot(): string;
  /** Where this session is recorded in full, when it is. */
  getTranscriptPath(): string | undefined;
}

/** The runtime as a reader: what a compression strategy receives (it never writes settings). */
export interface RuntimeContextReader {
  /** `get(key)`, typed by the registry. */
  readonly settings: SettingsReader;
  /**
   * One accessor per registry key (`densityReadWritePruning()`, `preserveThreshold()`, …, REQ-HD-009.5),
   * each returning what `settings.get(key)` returns, plus the computed `compressionThreshold()` and
   * `contextLimit()`.
   */
  readonly ephemerals: EphemeralAccessors;
  /**
   * The effective context window in tokens: the `context-limit` setting, else the model's known
   * window, else `FALLBACK_CONTEXT_LIMIT`. The same function as `ephemerals.contextLimit`.
   */
  contextLimit(): number;
  readonly config: RuntimeConfig;
}

export interface AgentRuntimeContext extends RuntimeContextReader {
  /** The live settings: `get(key)` typed by the registry, and the writes `/set` and profiles make. */
  readonly settings: SettingsService;
}

/** Who is talking to whom in this session. */
export interface AgentRuntimeState {
  readonly sessionId: string;
  readonly provider: string;
  readonly model: string;
}
