/** The typed failure of the offline demo: the fixed script no longer matches what really happened. */
import { DenseError } from '@dense/core';

export class DemoScriptError extends DenseError {
  readonly code = 'DEMO_SCRIPT_MISMATCH';

  constructor(
    /** 1-based turn of the script where it went wrong. */
    readonly turn: number,
    detail: string,
  ) {
    super(
      `The demo script went off track at turn ${turn}: ${detail}. The sample project or a tool ` +
        'changed without the script; run the demo tests (packages/cli/src/demo) to see where.',
    );
  }
}
