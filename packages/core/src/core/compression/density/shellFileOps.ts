/**
 * Placeholder for the shell file-operation classifier (the stretch part of issue 4): it recognises
 * no command yet, so shell calls never count as reads or writes.
 */
import type { FileEffect } from './callFileEffect.js';

export function classifyShellCommand(_command: string): FileEffect | undefined {
  return undefined;
}
