/** Everything one running `dense` session is made of: core's AgentSession and the CLI's parts. */
import type {
  AgentSession,
  DensePaths,
  ProfileManager,
  SettingsService,
  ToolRegistry,
} from '@dense/core';
import type { ApprovalBroker } from './ApprovalBroker.js';
import type { ProviderHolder } from './ProviderHolder.js';
import type { SessionRecorder } from './SessionRecorder.js';

export interface ResumeInfo {
  readonly sessionId: string;
  readonly entries: number;
  /** The workspace the recording was made in (it may differ from this session's). */
  readonly workspaceRoot: string;
  /** Lines of the recording that could not be read. */
  readonly skippedLines: number;
}

/** What rides on every request besides the history (system prompt, memory files, tool schemas), in tokens. */
export interface PromptParts {
  /** The system prompt without the memory files. */
  readonly systemTokens: number;
  readonly memoryFiles: readonly { readonly path: string; readonly tokens: number }[];
  readonly toolSchemaTokens: number;
}

export interface CliSession {
  readonly session: AgentSession;
  readonly settings: SettingsService;
  readonly profiles: ProfileManager;
  readonly providers: ProviderHolder;
  readonly tools: ToolRegistry;
  readonly recorder: SessionRecorder;
  readonly approvals: ApprovalBroker;
  readonly workspaceRoot: string;
  readonly paths: DensePaths;
  /** `--yolo`: write and shell tools run without asking. */
  readonly yolo?: boolean;
  readonly prompt?: PromptParts;
  /** The profile loaded at start or by `/profile load`, if any. */
  activeProfile: string | undefined;
  readonly resumed?: ResumeInfo;
  /** Messages for the user that arose outside a command (recording failures and the like). */
  readonly onNotice: (listener: (message: string) => void) => () => void;
  /** Resolves once the session's background writes (the recall archive) have ended. */
  settled(): Promise<void>;
  dispose(): void;
}
