/**
 * What Codex's `apply_patch` run as a shell command (`apply_patch <<'EOF' …`, which Codex
 * intercepts and applies itself) reports in the output the model sees. Codex 0.169 shows it in
 * two forms, both measured with the real binary: the command's output passed to `text(…)`
 * (`Exit code: 0\nWall time: …\nOutput:\nSuccess. Updated the following files:\nM a.txt\n`), or
 * the whole result object (`{"wall_time_seconds":0,"output":"Exit code: 0…"}`, with no
 * `exit_code` member, unlike other commands' results). A patch that does not apply fails the
 * script (`Script failed`, `apply_patch verification failed: …`). Pure.
 */

export const PATCH_OUTCOMES = ['applied', 'failed', 'unknown'] as const;
export type PatchOutcome = (typeof PATCH_OUTCOMES)[number];

/** The header Codex writes before a command's output. */
const EXEC_HEADER = /^Exit code: (-?\d+)\r?\n(?:Wall time: [^\n]*\r?\n)?Output:\r?\n/;
/** What `apply_patch` prints when every file was written. */
const SUCCESS = /^Success\. Updated the following files:\r?\n/;

/** The text of a shown item: a result object's `output` (and its `exit_code` if any), else itself. */
function shownText(part: string): { readonly text: string; readonly exitCode?: number } {
  if (!part.trimStart().startsWith('{')) return { text: part };
  try {
    const value = JSON.parse(part) as unknown;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return { text: part };
    const record = value as Readonly<Record<string, unknown>>;
    if (typeof record.output !== 'string') return { text: part };
    return typeof record.exit_code === 'number'
      ? { text: record.output, exitCode: record.exit_code }
      : { text: record.output };
  } catch {
    return { text: part }; // text that only looks like an object
  }
}

function partOutcome(part: string): PatchOutcome {
  const shown = shownText(part);
  const header = EXEC_HEADER.exec(shown.text);
  const exitCode = header === null ? shown.exitCode : Number(header[1]);
  if (exitCode !== undefined && exitCode !== 0) return 'failed';
  const output = header === null ? shown.text : shown.text.slice(header[0].length);
  return SUCCESS.test(output) ? 'applied' : 'unknown';
}

/**
 * The outcome of a shell `apply_patch` from the items its script showed (after the script's own
 * header): `applied` when an item reports the success text with no non-zero exit code, `failed`
 * when an item shows a non-zero exit code, else `unknown`.
 */
export function shellPatchOutcome(shown: readonly string[]): PatchOutcome {
  const outcomes = shown.map(partOutcome);
  if (outcomes.includes('failed')) return 'failed';
  return outcomes.includes('applied') ? 'applied' : 'unknown';
}
