/**
 * Artifact-trail survival (issue #11.3): at each applied compression, the share of the paths and
 * shell commands the session touched so far that are still named somewhere in the context after
 * it. Touched artifacts accumulate over the session (from every pre-compression history), so what
 * an earlier compression dropped still counts.
 */
import type { IContent } from '../../services/history/IContent.js';
import { resultText } from '../../core/compression/density/toolResultText.js';
import {
  collectArtifacts,
  emptyArtifacts,
  type Artifacts,
} from '../../core/compression/artifactTrail/collectArtifacts.js';

export interface SurvivalCount {
  /** Σ over compressions of the touched paths and commands. */
  readonly touched: number;
  /** Σ over compressions of those still named in the context after it. */
  readonly present: number;
}

export const ZERO_SURVIVAL: SurvivalCount = { touched: 0, present: 0 };

function contextText(history: readonly IContent[]): string {
  const parts: string[] = [];
  for (const entry of history) {
    for (const block of entry.blocks) {
      if (block.type === 'text') parts.push(block.text);
      else if (block.type === 'tool_call') parts.push(JSON.stringify(block.parameters));
      else if (block.type === 'tool_response') parts.push(resultText(block.result));
    }
  }
  return parts.join('\n');
}

/** JSON-escaped too: a command inside tool-call parameters appears with its quotes escaped. */
function named(text: string, key: string): boolean {
  const needle = key.endsWith('…') ? key.slice(0, -1) : key;
  if (text.includes(needle)) return true;
  const escaped = JSON.stringify(needle).slice(1, -1);
  return escaped !== needle && text.includes(escaped);
}

export class ArtifactSurvival {
  private readonly touched: Artifacts = emptyArtifacts();
  private count: SurvivalCount = ZERO_SURVIVAL;

  constructor(private readonly workspaceRoot: string) {}

  onCompressed(before: readonly IContent[], after: readonly IContent[]): void {
    collectArtifacts(before, this.workspaceRoot, this.touched);
    const text = contextText(after);
    let touched = 0;
    let present = 0;
    for (const key of [...this.touched.files.keys(), ...this.touched.commands.keys()]) {
      touched++;
      if (named(text, key)) present++;
    }
    this.count = { touched: this.count.touched + touched, present: this.count.present + present };
  }

  totals(): SurvivalCount {
    return this.count;
  }
}
