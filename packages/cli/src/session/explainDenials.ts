/**
 * In one-shot mode nobody can answer an approval prompt, so write and shell tools are denied. This
 * wraps the tool executor so such a denial tells the model (and the user reading stderr) why, and
 * how to allow them: `--yolo`.
 */
import type { ToolExecutor } from '@dense/core';

export const ONE_SHOT_DENIAL_NOTE =
  'dense -p runs without approval prompts, so write and shell tools are denied; rerun with --yolo to allow them.';

export function explainDenials(
  executor: ToolExecutor,
  note: string = ONE_SHOT_DENIAL_NOTE,
): ToolExecutor {
  return {
    schemas: () => executor.schemas(),
    execute: async (call, signal) => {
      const response = await executor.execute(call, signal);
      if (response.error?.startsWith('TOOL_DENIED') !== true) return response;
      return { ...response, error: `TOOL_DENIED: ${note}` };
    },
  };
}
