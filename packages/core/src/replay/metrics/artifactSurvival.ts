/**
 * Artifact-trail survival: at each applied compression, the share of the paths and
 * shell commands the session touched so far that are still named somewhere in the context after
 * it. Touched artifacts accumulate over the session (from every pre-compression history), so what
 * an earlier compression dropped still counts.
 */
import type { IContent } from '../../services/history/IContent.js';
import { historyText, isNamedIn } from '../../core/compression/artifactTrail/namedInHistory.js';
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

export class ArtifactSurvival {
  private readonly touched: Artifacts = emptyArtifacts();
  private count: SurvivalCount = ZERO_SURVIVAL;

  constructor(private readonly workspaceRoot: string) {}

  onCompressed(before: readonly IContent[], after: readonly IContent[]): void {
    collectArtifacts(before, this.workspaceRoot, this.touched);
    const text = historyText(after);
    let touched = 0;
    let present = 0;
    for (const key of [...this.touched.files.keys(), ...this.touched.commands.keys()]) {
      touched++;
      if (isNamedIn(text, key)) present++;
    }
    this.count = { touched: this.count.touched + touched, present: this.count.present + present };
  }

  totals(): SurvivalCount {
    return this.count;
  }
}
