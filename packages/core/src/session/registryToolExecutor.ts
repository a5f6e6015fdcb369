/** Adapts the tools' ToolRegistry to the ToolExecutor port the turn loop runs tools through. */
import type { ToolExecutor } from '../core/chatTypes.js';
import type { ToolContext } from '../tools/Tool.js';
import type { ToolRegistry } from '../tools/ToolRegistry.js';

/**
 * A ToolExecutor running calls through `registry` with `context` (the turn's abort signal is
 * added per call). `context` is read on every call, so a getter may return fresh settings such as
 * auto-approval toggled mid-session.
 */
export function registryToolExecutor(
  registry: ToolRegistry,
  context: Omit<ToolContext, 'signal'> | (() => Omit<ToolContext, 'signal'>),
): ToolExecutor {
  const current = typeof context === 'function' ? context : () => context;
  return {
    schemas: () => registry.schemas(),
    execute: (call, signal) =>
      registry.execute(call, { ...current(), ...(signal === undefined ? {} : { signal }) }),
  };
}
