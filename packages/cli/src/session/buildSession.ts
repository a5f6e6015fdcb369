/**
 * Wires one `dense` session from the parsed command line: profile, settings (`--set` after the
 * profile), provider, tools with approval, system prompt, session recording and `--resume`.
 * Everything with I/O comes in through `deps` or core's ports, so tests can build sessions against
 * scripted providers and temp directories.
 */
import { stat } from 'node:fs/promises';
import {
  RecallArchive,
  AgentSession,
  countO200kTokens,
  createDefaultToolRegistry,
  createProvider,
  createToolContext,
  DEFAULT_PROMPTS_DIR,
  FilePromptResolver,
  getDensePaths,
  ProfileManager,
  registryToolExecutor,
  SettingsService,
  TodoStore,
  TypedEmitter,
  type DensePaths,
  type IProvider,
  type Profile,
  type ProviderConfig,
  type ToolExecutor,
  type ToolRegistry,
} from '@dense/core';
import type { CliConfig } from '../args/CliConfig.js';
import { CliError } from '../cliErrors.js';
import { ApprovalBroker } from './ApprovalBroker.js';
import type { CliSession, PromptParts, ResumeInfo } from './CliSession.js';
import { explainDenials } from './explainDenials.js';
import { loadSessionRecording, type SessionRecording } from './loadSessionRecording.js';
import { loadSystemPrompt } from './loadSystemPrompt.js';
import { findMemoryFiles, memoryPromptSection } from './memoryFiles.js';
import { chooseProvider, ProviderHolder, type ProviderChoice } from './ProviderHolder.js';
import { findSessionFile, newSessionId, sessionFileFor } from './sessionFiles.js';
import { SessionRecorder } from './SessionRecorder.js';
import { createSessionRecall, type SessionRecall } from './sessionRecall.js';
import { SummaryProviders } from './SummaryProviders.js';

export interface BuildSessionDeps {
  readonly env: NodeJS.ProcessEnv;
  /** Interactive sessions ask before write/shell tools; one-shot ones deny them unless --yolo. */
  readonly interactive: boolean;
  /** Default: `createProvider(config, env)`. */
  readonly createProvider?: (config: ProviderConfig) => IProvider;
  readonly now?: () => number;
  /** Where core's shipped prompts are (default: core's own). */
  readonly promptsDir?: string;
}

async function checkWorkspace(workspace: string): Promise<void> {
  try {
    if ((await stat(workspace)).isDirectory()) return;
  } catch {
    // reported below
  }
  throw new CliError(
    'CLI_WORKSPACE_INVALID',
    `Workspace ${workspace} is not a directory; pass an existing directory with --workspace.`,
  );
}

interface Recording {
  readonly sessionId: string;
  readonly file: string;
  readonly loaded?: SessionRecording;
}

async function openRecording(
  config: CliConfig,
  sessionsDir: string,
  now: number,
): Promise<Recording> {
  if (config.resume === undefined) {
    const sessionId = newSessionId(new Date(now));
    return { sessionId, file: sessionFileFor(sessionsDir, sessionId) };
  }
  const found = await findSessionFile(sessionsDir, config.resume);
  const loaded = await loadSessionRecording(found.file);
  return { sessionId: loaded.header.sessionId, file: found.file, loaded };
}

function toolExecutor(
  config: CliConfig,
  deps: BuildSessionDeps,
  approvals: ApprovalBroker,
  todoStore: TodoStore,
  recall: SessionRecall,
): { registry: ToolRegistry; executor: ToolExecutor } {
  const registry = createDefaultToolRegistry();
  const context = createToolContext({
    workspaceRoot: config.workspace,
    todoStore,
    recallStore: recall.store,
    autoApprove: config.yolo,
    ...(deps.interactive ? { approve: approvals.approve } : {}),
  });
  const executor = registryToolExecutor(registry, context);
  return { registry, executor: deps.interactive ? executor : explainDenials(executor) };
}

async function loadStartSettings(
  config: CliConfig,
  profiles: ProfileManager,
): Promise<{ readonly profile: Profile | undefined; readonly settings: SettingsService }> {
  const profile = config.profile === undefined ? undefined : await profiles.load(config.profile);
  const settings = new SettingsService(profile ? { profile: profile.settings } : {});
  for (const override of config.settings) {
    const result = settings.setFromString(override.key, override.raw);
    if (!result.ok) throw result.error;
  }
  return { profile, settings };
}

interface SessionParts {
  readonly config: CliConfig;
  readonly deps: BuildSessionDeps;
  readonly paths: DensePaths;
  readonly settings: SettingsService;
  readonly providers: ProviderHolder;
  readonly summaries: SummaryProviders;
  readonly recorder: SessionRecorder;
  readonly approvals: ApprovalBroker;
  readonly sessionId: string;
  readonly onNotice: (message: string) => void;
}

async function createAgentSession(parts: SessionParts): Promise<{
  readonly session: AgentSession;
  readonly registry: ToolRegistry;
  readonly recall: SessionRecall;
  readonly prompt: PromptParts;
}> {
  const { config, deps, paths, providers, recorder } = parts;
  const now = deps.now ?? Date.now;
  const promptsDir = deps.promptsDir ?? DEFAULT_PROMPTS_DIR;
  const promptResolver = new FilePromptResolver({ userPromptsDir: paths.promptsDir });
  const basePrompt = await loadSystemPrompt(
    promptResolver,
    { workspaceRoot: config.workspace, date: new Date(now()).toISOString().slice(0, 10) },
    promptsDir,
  );
  const memory = await findMemoryFiles(config.workspace);
  const systemPrompt = basePrompt + memoryPromptSection(memory);
  const todoStore = new TodoStore();
  const recall = createSessionRecall(recorder, {
    archive: new RecallArchive({ dir: paths.recallDir }),
    conversationId: parts.sessionId,
    onError: parts.onNotice,
  });
  const { registry, executor } = toolExecutor(config, deps, parts.approvals, todoStore, recall);
  const session = new AgentSession({
    settings: parts.settings,
    workspaceRoot: config.workspace,
    provider: () => providers.current,
    resolveProvider: parts.summaries.resolve,
    tools: executor,
    promptResolver,
    promptBaseDir: promptsDir,
    todoStore,
    modelContextLimit: () => providers.contextWindow(),
    systemPrompt: () => systemPrompt,
    transcriptPath: () => (recorder.hasFile ? recorder.path : undefined),
    sessionId: parts.sessionId,
    ...(deps.now ? { now: deps.now } : {}),
  });
  const prompt: PromptParts = {
    systemTokens: countO200kTokens(basePrompt),
    memoryFiles: memory.map((f) => ({ path: f.path, tokens: countO200kTokens(f.text) })),
    toolSchemaTokens: countO200kTokens(JSON.stringify(executor.schemas())),
  };
  return { session, registry, recall, prompt };
}

/** The session's recorder: its header names the session, workspace and provider (never a key). */
function sessionRecorder(
  config: CliConfig,
  recording: Recording,
  provider: ReturnType<typeof recordedProvider>,
  onNotice: (message: string) => void,
  now: () => number,
): SessionRecorder {
  return new SessionRecorder({
    file: recording.file,
    header: {
      sessionId: recording.sessionId,
      startedAt: new Date(now()).toISOString(),
      workspaceRoot: config.workspace,
      ...provider,
    },
    resumed: recording.loaded !== undefined,
    onError: onNotice,
    now,
  });
}

/**
 * @throws ProfileError (a broken or missing `--profile`), ProviderError (no key, bad URL),
 *   CliError (workspace, `--resume` target), PromptFileError (system prompt unreadable).
 */
export async function buildSession(config: CliConfig, deps: BuildSessionDeps): Promise<CliSession> {
  const now = deps.now ?? Date.now;
  await checkWorkspace(config.workspace);
  const paths = getDensePaths(deps.env);
  const profiles = new ProfileManager(paths.profilesDir);
  const { profile, settings } = await loadStartSettings(config, profiles);
  const factory = deps.createProvider ?? ((c: ProviderConfig) => createProvider(c, deps.env));
  const recording = await openRecording(config, paths.sessionsDir, now());
  const providers = new ProviderHolder(startChoice(config, profile, recording), factory);
  const notices = new TypedEmitter<{ notice: string }>();
  const onNotice = (message: string): void => notices.emit('notice', message);
  const recorder = sessionRecorder(config, recording, recordedProvider(providers), onNotice, now);
  const approvals = new ApprovalBroker();
  const summaries = new SummaryProviders({ settings, profiles, providers, onNotice });
  const { session, registry, recall, prompt } = await createAgentSession({
    config,
    deps,
    paths,
    settings,
    providers,
    summaries,
    recorder,
    approvals,
    sessionId: recording.sessionId,
    onNotice,
  });
  const resumed = restore(session, recording, recorder);
  const detach = [
    recorder.attach(session),
    recall.attach(session),
    // A compression that would loop is skipped and the user is told why.
    session.compression.events.on('compactionLoop', (event) => onNotice(event.message)),
    session.compression.events.on('emergencyRoom', (event) => onNotice(event.message)),
  ];
  await summaries.prepareCurrent();
  return {
    session,
    settings,
    profiles,
    providers,
    tools: registry,
    recorder,
    approvals,
    workspaceRoot: config.workspace,
    paths,
    activeProfile: config.profile,
    yolo: config.yolo,
    prompt,
    ...(resumed ? { resumed } : {}),
    onNotice: (listener) => notices.on('notice', listener),
    settled: () => recall.settled(),
    dispose: () => {
      for (const off of [...detach, () => summaries.dispose(), () => session.stats.dispose()]) {
        off();
      }
    },
  };
}

/**
 * The provider to start with: the command line's, else a resumed recording's (provider, model,
 * base URL), else the profile's.
 */
function startChoice(
  config: CliConfig,
  profile: Profile | undefined,
  recording: Recording,
): ProviderChoice {
  const header = recording.loaded?.header;
  return chooseProvider(config, header ?? profile);
}

/** What the recording's header says about the provider: never a key. */
function recordedProvider(providers: ProviderHolder): {
  provider: string;
  model: string;
  baseUrl?: string;
} {
  const { baseUrl } = providers.config;
  return {
    provider: providers.current.name,
    model: providers.current.model,
    ...(baseUrl === undefined ? {} : { baseUrl }),
  };
}

/** Puts a resumed recording's entries into the new session's history (density runs before the next send). */
function restore(
  session: AgentSession,
  recording: Recording,
  recorder: SessionRecorder,
): ResumeInfo | undefined {
  const { loaded } = recording;
  if (loaded === undefined) return undefined;
  session.history.addAll(loaded.contents);
  session.compression.markDirty();
  recorder.recordEvent('resumed', { entries: loaded.contents.length });
  return {
    sessionId: recording.sessionId,
    entries: loaded.contents.length,
    workspaceRoot: loaded.header.workspaceRoot,
    skippedLines: loaded.skipped.length,
  };
}
