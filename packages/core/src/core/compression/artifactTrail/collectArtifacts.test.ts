import { describe, expect, it } from 'vitest';
import {
  createAiMessage,
  toolCallBlock,
  type IContent,
  type ToolResponseBlock,
} from '../../../services/history/IContent.js';
import { collectArtifacts } from './collectArtifacts.js';
import { triedLines } from './triedAndFailed.js';

describe('#33.3 collectArtifacts: what was tried and failed', () => {
  it('#33.3 a failed run density answered with a repeat reply is quoted from its own output, not the reply', () => {
    const call = createAiMessage([
      toolCallBlock('b1', 'run_shell_command', { command: 'npm run build' }),
    ]);
    const reply: ToolResponseBlock = {
      type: 'tool_response',
      callId: 'b1',
      toolName: 'run_shell_command',
      result: '',
      error: "[lines 1–2 of call b0's output repeat here unchanged (still above)]",
      original: 'Exit code 2\nsrc/lex.ts(4,1): error TS2304: Cannot find name scanIdent.',
    };
    const result: IContent = { speaker: 'tool', blocks: [reply] };
    const artifacts = collectArtifacts([call, result], '/w');
    expect(triedLines(artifacts.tried)).toEqual([
      '- `npm run build` → failed: src/lex.ts(4,1): error TS2304: Cannot find name scanIdent.',
    ]);
  });
});
