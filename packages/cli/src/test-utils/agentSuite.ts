/**
 * What the end-to-end suites with a real agent CLI share: the pinned install and the suite's
 * title (or why it is skipped), the 400-line file their edit scenarios change, and the proxy
 * pointer as it appears as a JSON string value.
 */
import type { AgentInstall } from './installAgentCli.js';

export interface AgentSuite {
  /** The binary and its leading arguments; empty when the suite is skipped. */
  readonly command: readonly string[];
  readonly skipReason: string | undefined;
  readonly title: string;
}

/**
 * Installs the pinned agent; `notReady` names anything else the suite needs that is missing
 * (checked after the install). The title reads `<name> with the real <agent> <version>`.
 */
export async function agentSuite(input: {
  readonly name: string;
  readonly agent: string;
  readonly version: string;
  readonly packageName: string;
  readonly install: () => Promise<AgentInstall>;
  readonly notReady?: () => Promise<string | undefined>;
}): Promise<AgentSuite> {
  const install = await input.install();
  const missing = await input.notReady?.();
  const skipReason =
    install.kind === 'unavailable'
      ? `${input.packageName} could not be installed: ${install.reason}`
      : missing;
  const subject = `${input.name} with the real ${input.agent}`;
  return {
    command: install.kind === 'installed' ? install.command : [],
    skipReason,
    title:
      skipReason === undefined
        ? `${subject} ${input.version}`
        : `${subject} (skipped: ${skipReason})`,
  };
}

/** The text of the edit scenarios' `notes.txt`: 400 lines, line 7 reads `line 7: original`. */
export const NOTES_TEXT = `${Array.from(
  { length: 400 },
  (_, i) =>
    `line ${i + 1}: ${i === 6 ? 'original' : 'the quick brown fox jumps over the lazy dog'}`,
).join('\n')}\n`;

/** A proxy pointer as a JSON string value: it names the result's recall id. */
export const POINTER_VALUE =
  /^"\[Result pruned \(stale read\) — run `dense recall r[0-9a-f]{10}` to see the original(?:\. The version read then [^\]]*)?\]"$/;
