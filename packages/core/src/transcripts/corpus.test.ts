/**
 * Imports every real session in the shared corpus (`../shared/corpus` from the repository root,
 * listed in its manifest.jsonl) and checks each file's model-call and tool-call counts against the
 * table below, so an importer that silently reads less fails here. Skipped, with a name that says
 * so, when the folder is absent (as on CI, whose checkout has no `../shared`).
 */
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  CORPUS,
  corpusEntries as entries,
  corpusPresent as present,
} from '../test-utils/sharedCorpus.js';
import { checkImport } from './checkImport.js';
import { importTranscriptSessions } from './importTranscript.js';
import { toolLinkProblems } from './toolLinkProblems.js';
import type { ImportedSession, SessionRole } from './types.js';

/**
 * Per corpus file (path under `raw/`), summed over its sessions: [model calls (AI entries), tool
 * calls]. Counted once from an import checked against the raw records; a changed number means an
 * importer now reads the file differently, which must be deliberate.
 */
const EXPECTED_CALLS: Readonly<Record<string, readonly [number, number]>> = {
  'mini-swe-agent-swebench-gemini3pro/astropy__astropy-8707.traj.json': [57, 55],
  'mini-swe-agent-swebench-gemini3pro/django__django-12965.traj.json': [50, 49],
  'mini-swe-agent-swebench-gemini3pro/matplotlib__matplotlib-24177.traj.json': [74, 72],
  'mini-swe-agent-swebench-gemini3pro/mwaskom__seaborn-3069.traj.json': [57, 50],
  'mini-swe-agent-swebench-gemini3pro/psf__requests-5414.traj.json': [50, 47],
  'mini-swe-agent-swebench-gemini3pro/pydata__xarray-4687.traj.json': [64, 63],
  'mini-swe-agent-swebench-gemini3pro/pylint-dev__pylint-6386.traj.json': [55, 54],
  'mini-swe-agent-swebench-gemini3pro/pytest-dev__pytest-7982.traj.json': [57, 57],
  'mini-swe-agent-swebench-gemini3pro/scikit-learn__scikit-learn-26323.traj.json': [56, 55],
  'mini-swe-agent-swebench-gemini3pro/sphinx-doc__sphinx-9229.traj.json': [142, 132],
  'mini-swe-agent-swebench-gemini3pro/sympy__sympy-13878.traj.json': [91, 89],
  'mini-swe-agent-swebench-gemini3pro/django__django-11265.traj.json': [59, 58],
  'mini-swe-agent-swebench-gemini3pro/matplotlib__matplotlib-23412.traj.json': [50, 50],
  'mini-swe-agent-swebench-gemini3pro/psf__requests-1142.traj.json': [71, 69],
  'mini-swe-agent-swebench-gemini3pro/pydata__xarray-7393.traj.json': [62, 62],
  'mini-swe-agent-swebench-gemini3pro/pylint-dev__pylint-6528.traj.json': [97, 95],
  'mini-swe-agent-swebench-gemini3pro/pytest-dev__pytest-6197.traj.json': [92, 91],
  'mini-swe-agent-swebench-gemini3pro/scikit-learn__scikit-learn-10908.traj.json': [53, 52],
  'mini-swe-agent-swebench-gemini3pro/sphinx-doc__sphinx-10673.traj.json': [81, 80],
  'mini-swe-agent-swebench-gemini3pro/sympy__sympy-18199.traj.json': [54, 54],
  'mini-swe-agent-swebench-gemini3pro/django__django-14349.traj.json': [92, 61],
  'mini-swe-agent-swebench-gemini3pro/matplotlib__matplotlib-22719.traj.json': [56, 54],
  'mini-swe-agent-swebench-gemini3pro/pydata__xarray-3095.traj.json': [54, 54],
  'mini-swe-agent-swebench-gemini3pro/pylint-dev__pylint-8898.traj.json': [55, 53],
  'mini-swe-agent-swebench-gemini3pro/pytest-dev__pytest-7490.traj.json': [97, 94],
  'mini-swe-agent-swebench-gemini3pro/astropy__astropy-14995.traj.json': [25, 24],
  'mini-swe-agent-swebench-gemini3pro/django__django-16877.traj.json': [39, 39],
  'mini-swe-agent-swebench-gemini3pro/matplotlib__matplotlib-26342.traj.json': [44, 43],
  'mini-swe-agent-swebench-gemini3pro/mwaskom__seaborn-3187.traj.json': [42, 40],
  'mini-swe-agent-swebench-gemini3pro/psf__requests-1766.traj.json': [25, 25],
  'mini-swe-agent-swebench-gemini3pro/pydata__xarray-6992.traj.json': [36, 36],
  'mini-swe-agent-swebench-gemini3pro/pylint-dev__pylint-4604.traj.json': [45, 43],
  'mini-swe-agent-swebench-gemini3pro/pytest-dev__pytest-5840.traj.json': [38, 38],
  'mini-swe-agent-swebench-gemini3pro/scikit-learn__scikit-learn-25102.traj.json': [43, 41],
  'mini-swe-agent-swebench-gemini3pro/sphinx-doc__sphinx-7590.traj.json': [32, 32],
  'mini-swe-agent-swebench-gemini3pro/sympy__sympy-13615.traj.json': [46, 45],
  'mini-swe-agent-swebench-gemini3pro/astropy__astropy-13977.traj.json': [28, 27],
  'mini-swe-agent-swebench-gemini3pro/django__django-16502.traj.json': [28, 26],
  'mini-swe-agent-swebench-gemini3pro/matplotlib__matplotlib-25332.traj.json': [37, 36],
  'mini-swe-agent-swebench-gemini3pro/psf__requests-2317.traj.json': [33, 32],
  'swe-agent-trajectories/gpt4__pydicom__pydicom-1458.traj': [12, 12],
  'swe-agent-trajectories/gpt4__swe-agent__test-repo-i1.traj': [5, 5],
  'swe-agent-trajectories/fc_replace_from_source__marshmallow-1867.traj': [13, 13],
  'swe-agent-trajectories/default_windowed__marshmallow-1867.traj': [14, 14],
  'swe-agent-trajectories/human_thought__humanevalfix-python-0.traj': [5, 5],
  'swe-agent-multi-swe-bench-java/deepseek-chat-v2__google__gson-1555.traj': [29, 29],
  'swe-agent-multi-swe-bench-java/deepseek-chat-v2__fasterxml__jackson-core-1133.traj': [23, 23],
  'swe-agent-multi-swe-bench-java/deepseek-chat-v2__google__gson-1703.traj': [23, 23],
  'swe-agent-multi-swe-bench-java/deepseek-chat-v2__fasterxml__jackson-core-980.traj': [22, 22],
  'swe-agent-multi-swe-bench-java/deepseek-chat-v2__fasterxml__jackson-databind-4230.traj': [
    22, 22,
  ],
  'swe-agent-multi-swe-bench-java/deepseek-chat-v2__fasterxml__jackson-databind-4257.traj': [
    18, 18,
  ],
  'swe-agent-multi-swe-bench-java/deepseek-coder-v2__fasterxml__jackson-dataformat-xml-544.traj': [
    47, 47,
  ],
  'swe-agent-multi-swe-bench-java/deepseek-coder-v2__fasterxml__jackson-databind-3625.traj': [
    36, 36,
  ],
  'swe-agent-multi-swe-bench-java/deepseek-coder-v2__fasterxml__jackson-databind-3666.traj': [
    26, 26,
  ],
  'swe-agent-multi-swe-bench-java/deepseek-coder-v2__fasterxml__jackson-dataformat-xml-531.traj': [
    16, 16,
  ],
  'swe-agent-multi-swe-bench-java/deepseek-coder-v2__fasterxml__jackson-core-1309.traj': [15, 15],
  'swe-agent-multi-swe-bench-java/deepseek-coder-v2__fasterxml__jackson-core-1172.traj': [12, 12],
  'swe-agent-multi-swe-bench-java/doubao-pro-128k__googlecontainertools__jib-4144.traj': [57, 57],
  'swe-agent-multi-swe-bench-java/doubao-pro-128k__fasterxml__jackson-core-1053.traj': [54, 54],
  'swe-agent-multi-swe-bench-java/doubao-pro-128k__google__gson-1555.traj': [54, 54],
  'swe-agent-multi-swe-bench-java/doubao-pro-128k__fasterxml__jackson-databind-3509.traj': [51, 51],
  'swe-agent-multi-swe-bench-java/doubao-pro-128k__fasterxml__jackson-databind-4219.traj': [51, 51],
  'swe-agent-multi-swe-bench-java/doubao-pro-128k__fasterxml__jackson-core-566.traj': [50, 50],
  'swe-agent-multi-swe-bench-java/gpt-4o-2024-05-13__fasterxml__jackson-databind-1650.traj': [
    19, 19,
  ],
  'swe-agent-multi-swe-bench-java/gpt-4o-2024-05-13__fasterxml__jackson-databind-4186.traj': [
    18, 18,
  ],
  'swe-agent-multi-swe-bench-java/gpt-4o-2024-05-13__apache__dubbo-7041.traj': [17, 17],
  'swe-agent-multi-swe-bench-java/gpt-4o-2024-05-13__fasterxml__jackson-dataformat-xml-531.traj': [
    17, 17,
  ],
  'swe-agent-multi-swe-bench-java/gpt-4o-2024-05-13__google__gson-1391.traj': [17, 17],
  'swe-agent-multi-swe-bench-java/gpt-4o-2024-05-13__apache__dubbo-9187.traj': [16, 16],
  'swe-agent-multi-swe-bench-java/gpt-4o-mini-2024-07-18__fasterxml__jackson-core-1208.traj': [
    30, 30,
  ],
  'swe-agent-multi-swe-bench-java/gpt-4o-mini-2024-07-18__fasterxml__jackson-core-1016.traj': [
    29, 29,
  ],
  'swe-agent-multi-swe-bench-java/gpt-4o-mini-2024-07-18__fasterxml__jackson-databind-4072.traj': [
    29, 29,
  ],
  'swe-agent-multi-swe-bench-java/gpt-4o-mini-2024-07-18__fasterxml__jackson-databind-4132.traj': [
    29, 29,
  ],
  'swe-agent-multi-swe-bench-java/gpt-4o-mini-2024-07-18__fasterxml__jackson-dataformat-xml-544.traj':
    [29, 29],
  'swe-agent-multi-swe-bench-java/gpt-4o-mini-2024-07-18__google__gson-1391.traj': [28, 28],
  'claude-code-gastownhall/1-claude-code-website-implementation-plan__subagents__agent-a1090b5.jsonl':
    [9, 22],
  'claude-code-gastownhall/1-claude-code-website-implementation-plan__subagents__agent-a48467c.jsonl':
    [7, 19],
  'claude-code-gastownhall/1-claude-code-website-implementation-plan__subagents__agent-ade0ac4.jsonl':
    [6, 10],
  'claude-code-gastownhall/1-claude-code-website-implementation-plan__subagents__agent-af83d1f.jsonl':
    [6, 14],
  'claude-code-gastownhall/2-claude-code-website-cc-learnings-session1.jsonl': [136, 145],
  'claude-code-gastownhall/3-claude-code-website-cc-learnings-session2.jsonl': [122, 157],
  'claude-code-gastownhall/4-claude-code-website-cc-loose-execute-plan.jsonl': [237, 346],
  'codex-cli-gastownhall/5-codex-website-codex.jsonl': [7, 7],
  'gemini-cli-chatrecording-gastownhall/6-gemini-execute-plan.json': [151, 198],
  'gemini-cli-content-mcp-lektor/260306_gemini_log.json': [48, 58],
  'gemini-cli-content-mcp-lektor/260306_gemini_log_a.json': [42, 37],
  'gemini-cli-content-mcp-lektor/260307_gemini_log.json': [100, 98],
  'gemini-cli-content-mcp-lektor/260308_gemini_log.json': [67, 64],
  'gemini-cli-content-mcp-lektor/260310_gemini_log.json': [81, 70],
  'gemini-cli-content-mcp-lektor/260312_gemini_log.json': [84, 76],
  'gemini-cli-content-mcp-lektor/260313_gemini_log.json': [63, 46],
  'gemini-cli-content-mcp-lektor/260318_gemini_log.json': [41, 39],
  'gemini-cli-content-mcp-lektor/260318_gemini_log_WORKFLOW.json': [15, 7],
  'gemini-cli-content-mcp-lektor/260318_gemini_log_a.json': [38, 39],
  'gemini-cli-markdown-plansmith/plansmith-current.md': [69, 69],
  'openhands/multi_swe_bench_output.jsonl': [105, 103],
  'openhands/resolver_mock_output.jsonl': [26, 24],
  'openhands/trajs_basic.json': [2, 1],
  'openhands/trajs_basic_gui_mode.json': [5, 4],
  'openhands/trajs_basic_interactions.json': [3, 0],
  'openhands/trajs_wrong_initial_state.json': [4, 3],
  'claude-code-hooks-chatjson/kesslerio__attio-mcp-server__f89f86a1.chat.json': [80, 73],
  'claude-code-hooks-chatjson/erewhon__medianator__a5b806f4.chat.json': [351, 337],
  'claude-code-hooks-chatjson/lroy-stack__restaurant-app__24133cc4.chat.json': [162, 188],
  'claude-code-hooks-chatjson/pattern-stack__task-patterns__998db3cd.chat.json': [82, 81],
  'claude-code-hooks-chatjson/TJProRata__GistConsole__7e4df352.chat.json': [45, 70],
  'mini-swe-agent2-deepseek/deepseek_chat_test_1-100__django__django-13590.traj.json': [64, 64],
  'mini-swe-agent2-deepseek/deepseek_chat_test_1-100__django__django-11848.traj.json': [90, 90],
  'mini-swe-agent2-deepseek/deepseek_reasoner_dev__pvlib__pvlib-python-1072.traj.json': [15, 15],
  'mini-swe-agent2-deepseek/deepseek_reasoner_dev__sqlfluff__sqlfluff-2419.traj.json': [55, 55],
  'claude-code-native-2026/Eduardodmb__ClaudeHome__73558073-081c-444b-95d7-35fc3edb6bb3.jsonl': [
    230, 253,
  ],
  'claude-code-native-2026/Eduardodmb__ClaudeHome__88ea4c87-1f4e-4765-b448-f79f0049550c.jsonl': [
    220, 241,
  ],
  'claude-code-native-2026/Eduardodmb__ClaudeHome__2558ae24-e069-42bd-b71c-d77f4ad91ef0.jsonl': [
    142, 131,
  ],
  'claude-code-native-2026/SWORDIntel__claude-backups__0c45b0a6-b564-4223-9f39-bc05598a4122.jsonl':
    [395, 369],
  'claude-code-native-2026/SWORDIntel__claude-backups__5f2d5220-e018-4795-8fcb-23e42b068058.jsonl':
    [231, 220],
  'claude-code-native-2026/bradymholt__dotfiles__354b2588-2a5c-43d7-b678-e95a4a87bd2a.jsonl': [
    182, 172,
  ],
  'claude-code-native-2026/adrianstanca1__vps-config__6ec78367-c548-4d6d-b80c-ec1d30cc5bb2.jsonl': [
    148, 174,
  ],
  'claude-code-native-2026/adrianstanca1__vps-config__6ec78367/subagents/agent-a2afd0e9b37afd332.jsonl':
    [6, 9],
  'claude-code-native-2026/adrianstanca1__vps-config__6ec78367/subagents/agent-a36e61659bb4f5fe2.jsonl':
    [3, 11],
  'claude-code-native-2026/adrianstanca1__vps-config__6ec78367/subagents/agent-a3b22d150328a4cd4.jsonl':
    [7, 15],
  'claude-code-native-2026/adrianstanca1__vps-config__6ec78367/subagents/agent-a3ba574fbdcfb88e5.jsonl':
    [9, 18],
  'claude-code-native-2026/adrianstanca1__vps-config__6ec78367/subagents/agent-a3ec9576eab48b7b8.jsonl':
    [21, 28],
  'claude-code-native-2026/adrianstanca1__vps-config__6ec78367/subagents/agent-a562625e12c50ac40.jsonl':
    [16, 30],
  'claude-code-native-2026/adrianstanca1__vps-config__6ec78367/subagents/agent-a5e24b3a1c80c347c.jsonl':
    [24, 26],
  'claude-code-native-2026/adrianstanca1__vps-config__6ec78367/subagents/agent-a6e70b749f8db1422.jsonl':
    [2, 2],
  'claude-code-native-2026/adrianstanca1__vps-config__6ec78367/subagents/agent-aab1ee12eb6105c96.jsonl':
    [12, 11],
  'claude-code-native-2026/adrianstanca1__vps-config__6ec78367/subagents/agent-ab50560fb43cbd6b1.jsonl':
    [9, 24],
  'claude-code-native-2026/adrianstanca1__vps-config__6ec78367/subagents/agent-abcae34a8bd7fa7b3.jsonl':
    [2, 2],
  'claude-code-native-2026/adrianstanca1__vps-config__6ec78367/subagents/agent-af6eb23014f581196.jsonl':
    [8, 11],
  'claude-code-native-2026/adrianstanca1__vps-config__6ec78367/subagents/agent-acompact-645cb129a2c883cb.jsonl':
    [15, 28],
  'claude-code-native-2026/adrianstanca1__vps-config__6ec78367/subagents/agent-acompact-daddd852fc06500e.jsonl':
    [147, 170],
  'codex-cli-rollouts-2026/AaronBakerDev__knearme-platform__rollout-2025-12-30T22-49-12-019b7286-24c7-7011-a4e8-65fdd4e19ee0.jsonl':
    [335, 321],
  'codex-cli-rollouts-2026/AaronBakerDev__knearme-platform__rollout-2026-01-05T15-09-41-019b8fc7-9aac-78c3-b313-7e96cffd9cc8.jsonl':
    [202, 189],
  'codex-cli-rollouts-2026/Kooksun__Lotto645__rollout-2025-11-07T09-37-47-019a5bbf-7e53-78a2-aef2-baed586b0f37.jsonl':
    [138, 136],
  'gemini-cli-chatrecordings-2026/mischa-thisness__M-Gemini__session-2026-01-11T00-25-17b4d5e9.json':
    [219, 181],
};

/** What a file is to its client, from where the client keeps it (see `SessionRole`). */
function expectedRole(file: string): SessionRole {
  if (/\/subagents\/agent-acompact-[^/]*\.jsonl$/.test(file)) return 'compaction-call';
  if (/(?:\/|__)subagents(?:\/|__)agent-[^/]*\.jsonl$/.test(file)) return 'subagent';
  return 'session';
}

/** Each manifest file's sessions, or the error importing it threw. */
const imported = new Map<string, ImportedSession[] | Error>();

/** A file's imported sessions; the error its import threw fails the test that asks. */
function sessionsOf(file: string): readonly ImportedSession[] | undefined {
  const sessions = imported.get(file);
  if (sessions instanceof Error) throw sessions;
  return sessions;
}

describe.skipIf(!present)(
  present ? `corpus: every session in ${CORPUS}` : `corpus: skipped, ${CORPUS} not found`,
  () => {
    beforeAll(async () => {
      for (const entry of entries) {
        const result = await importTranscriptSessions(path.join(CORPUS, entry.file)).catch(
          (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
        );
        imported.set(entry.file, result);
      }
    });

    it.each(entries.map((entry) => entry.file))(
      'imports %s without error, skips nothing and links every call',
      (file) => {
        const sessions = sessionsOf(file);
        expect(sessions?.length).toBeGreaterThan(0);
        for (const session of sessions ?? []) {
          expect(session.skipped).toEqual([]);
          expect(session.stats.entries).toBeGreaterThan(0);
          expect(session.stats.aiEntries).toBeGreaterThan(0);
          expect(toolLinkProblems(session.contents)).toEqual([]);
          expect(session.stats.toolResponses + session.stats.unansweredCalls).toBe(
            session.stats.toolCalls,
          );
        }
      },
    );

    it.each(entries.map((entry) => entry.file))(
      '#22.17 imports every model call and tool call of %s (expected counts per file)',
      (file) => {
        const sessions = sessionsOf(file);
        const counted = [
          (sessions ?? []).reduce((sum, session) => sum + session.stats.aiEntries, 0),
          (sessions ?? []).reduce((sum, session) => sum + session.stats.toolCalls, 0),
        ];
        const expected = EXPECTED_CALLS[file.replace(/^raw\//, '')];
        expect(expected, `add '${file}': [${counted.join(', ')}] to EXPECTED_CALLS`).toBeDefined();
        expect(counted).toEqual(expected);
        for (const session of sessions ?? []) expect(checkImport(session)).toEqual({ kind: 'ok' });
      },
    );

    it.each(entries.map((entry) => entry.file))(
      '#22.17 counts the calls %s holds, apart from the mapping, close to what is imported',
      (file) => {
        const sessions = sessionsOf(file);
        for (const session of sessions ?? []) {
          const { recorded, stats } = session;
          expect(recorded, 'every importer counts what its file holds').toBeDefined();
          const close = (imported: number, held: number): boolean =>
            Math.abs(imported - held) <= Math.max(1, held * 0.1);
          expect(close(stats.aiEntries, recorded?.modelCalls ?? 0)).toBe(true);
          expect(close(stats.toolCalls, recorded?.toolCalls ?? 0)).toBe(true);
        }
      },
    );

    it.each(entries.map((entry) => entry.file))(
      '#32.1 classifies %s (session, subagent or the client compaction call) and imports no history twice',
      (file) => {
        const sessions = sessionsOf(file);
        for (const session of sessions ?? []) {
          expect(session.role ?? 'session').toBe(expectedRole(file));
          const replyIds = session.contents
            .filter((entry) => entry.speaker === 'ai' && typeof entry.metadata?.id === 'string')
            .map((entry) => String(entry.metadata?.id));
          if (session.format === 'claude-code') {
            expect(new Set(replyIds).size, 'one AI entry per provider reply').toBe(replyIds.length);
          }
          const errors = session.skipped.filter((s) => s.reason.includes('unknown tool_use id'));
          expect(errors, 'no result turned into an error or dropped').toEqual([]);
        }
      },
    );

    it('finds tool calls, reads and writes in every source', () => {
      const bySource = new Map<string, ImportedSession[]>();
      for (const entry of entries) {
        const sessions = imported.get(entry.file);
        if (Array.isArray(sessions)) {
          bySource.set(entry.source, [...(bySource.get(entry.source) ?? []), ...sessions]);
        }
      }
      expect(bySource.size).toBe(new Set(entries.map((entry) => entry.source)).size);
      for (const [source, sessions] of bySource) {
        const total = (
          key: 'toolCalls' | 'reads' | 'writes' | 'shellReads' | 'shellWrites',
        ): number => sessions.reduce((sum, session) => sum + session.stats[key], 0);
        expect(total('toolCalls'), source).toBeGreaterThan(0);
        expect(total('reads') + total('shellReads'), source).toBeGreaterThan(0);
        expect(total('writes') + total('shellWrites'), source).toBeGreaterThan(0);
      }
    });
  },
);
