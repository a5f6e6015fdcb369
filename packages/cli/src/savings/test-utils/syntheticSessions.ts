/**
 * Invented agent sessions in the clients' own transcript formats, shaped like real ones (a task,
 * file reads, edits, test runs, a compaction of the client's own, recorded times and usage), for
 * `dense savings` tests. The project (a kitchen timer) and every line of it are made up here.
 */

const MINUTE = 60_000;

/** A made-up source file: `lines` lines of TypeScript, different for each `name` and `version`. */
export function timerSource(name: string, lines: number, version = 1): string {
  const out: string[] = [`// ${name}: part of the kitchen timer (v${version})`];
  for (let i = 1; i < lines; i++) {
    out.push(
      `export const ${name}Step${i} = (state: TimerState): TimerState => ({ ...state, remaining: state.remaining - ${i * version}, label: '${name}-${i}' });`,
    );
  }
  return out.join('\n');
}

const numbered = (text: string): string =>
  text
    .split('\n')
    .map((line, i) => `${String(i + 1).padStart(6)}→${line}`)
    .join('\n');

export interface SessionShape {
  readonly id: string;
  /** Rounds of read → edit → test → read again; each read ~2.5k tokens. */
  readonly rounds: number;
  /** The client compacts itself after this round (its summary recorded, 80 s after the last record). */
  readonly compactAfter?: number;
  readonly model: string;
  /** When the session starts (ms since the epoch). */
  readonly start: number;
}

/** What the agent says before round `r`: a name it read rounds earlier (a specific it uses). */
function recallNote(prefix: string, r: number): string {
  const earlier = Math.max(0, r - 6);
  return `Before ${prefix}${r}: ${prefix}${earlier}Step${(r % 90) + 3} from round ${earlier} set the pattern to follow.`;
}

/** A Claude Code session JSONL (`~/.claude/projects/<project>/<id>.jsonl`). */
export function claudeCodeSession(shape: SessionShape): string {
  const cwd = '/home/cook/kitchen-timer';
  const lines: object[] = [];
  let clock = shape.start;
  let parent: string | null = null;
  let n = 0;
  const base = () => ({
    parentUuid: parent,
    isSidechain: false,
    userType: 'external',
    cwd,
    sessionId: shape.id,
    version: '2.0.30',
    gitBranch: 'main',
  });
  const push = (fields: object, seconds = 5): void => {
    clock += seconds * 1000;
    const uuid = `${shape.id}-u${n++}`;
    lines.push({ ...base(), ...fields, uuid, timestamp: new Date(clock).toISOString() });
    parent = uuid;
  };
  const usage = {
    input_tokens: 12,
    cache_creation_input_tokens: 900,
    cache_read_input_tokens: 20_000,
    output_tokens: 80,
  };
  const reply = (content: object[]) =>
    push({
      type: 'assistant',
      message: {
        id: `msg_${shape.id}_${n}`,
        type: 'message',
        role: 'assistant',
        model: shape.model,
        content,
        stop_reason: 'tool_use',
        usage,
      },
    });
  const call = (name: string, input: object, result: string, note?: string) => {
    const id = `toolu_${shape.id}_${n}`;
    const text = note === undefined ? [] : [{ type: 'text', text: note }];
    reply([...text, { type: 'tool_use', id, name, input }]);
    push({
      type: 'user',
      message: {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: id, content: result }],
      },
    });
  };
  push({
    type: 'user',
    message: {
      role: 'user',
      content: 'The timer skips a second when paused. Find why and fix every step file.',
    },
  });
  for (let r = 0; r < shape.rounds; r++) {
    const file = `${cwd}/src/steps/step${r}.ts`;
    call(
      'Read',
      { file_path: file },
      numbered(timerSource(`step${r}`, 100)),
      recallNote('step', r),
    );
    call(
      'Edit',
      { file_path: file, old_string: `remaining - ${r + 1}`, new_string: `remaining - ${r + 2}` },
      `The file ${file} has been updated.`,
    );
    call(
      'Bash',
      { command: 'npm test -- steps', description: 'Run the step tests' },
      `PASS src/steps/step${r}.test.ts\nTests: ${r + 3} passed`,
    );
    call('Read', { file_path: file }, numbered(timerSource(`step${r}`, 100, 2)));
    if (r === shape.compactAfter) {
      lines.push({
        ...base(),
        type: 'system',
        subtype: 'compact_boundary',
        content: 'Conversation compacted',
        compactMetadata: { trigger: 'auto', preTokens: 150_000 },
        uuid: `${shape.id}-b${r}`,
        timestamp: new Date(clock + 80_000).toISOString(),
      });
      push(
        {
          type: 'user',
          isCompactSummary: true,
          message: {
            role: 'user',
            content: `This session is being continued from a previous conversation. Summary: step0 to step${r} were fixed and their tests pass; the remaining step files are next.`,
          },
        },
        80,
      );
    }
  }
  reply([
    {
      type: 'text',
      text: 'Every step file now subtracts the right amount; the paused timer keeps its second.',
    },
  ]);
  return `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`;
}

/** A Codex rollout JSONL (`~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`). */
export function codexRollout(shape: SessionShape): string {
  const cwd = '/home/cook/kitchen-timer';
  const lines: string[] = [];
  let clock = shape.start;
  const line = (type: string, payload: object, seconds = 4) => {
    clock += seconds * 1000;
    lines.push(JSON.stringify({ timestamp: new Date(clock).toISOString(), type, payload }));
  };
  const item = (payload: object) => line('response_item', payload);
  let total = 0;
  const tokens = (input: number) => {
    total += input + 60;
    line(
      'event_msg',
      {
        type: 'token_count',
        info: {
          last_token_usage: {
            input_tokens: input,
            cached_input_tokens: Math.floor(input * 0.8),
            output_tokens: 60,
            reasoning_output_tokens: 20,
            total_tokens: input + 60,
          },
          total_token_usage: { total_tokens: total },
          model_context_window: 258_400,
        },
      },
      1,
    );
  };
  const shell = (id: string, command: string, output: string, size: number) => {
    item({
      type: 'function_call',
      name: 'shell',
      call_id: id,
      arguments: JSON.stringify({ command: ['bash', '-lc', command], workdir: cwd }),
    });
    tokens(size);
    item({
      type: 'function_call_output',
      call_id: id,
      output: JSON.stringify({ output, metadata: { exit_code: 0, duration_seconds: 0.2 } }),
    });
  };
  line('session_meta', {
    id: shape.id,
    timestamp: new Date(clock).toISOString(),
    cwd,
    originator: 'codex_cli_rs',
    cli_version: '0.50.0',
    instructions: 'Keep changes small.',
  });
  line('turn_context', { cwd, approval_policy: 'on-request', model: shape.model });
  const ask = 'Make the alarm module ring three times, and keep its tests green.';
  item({ type: 'message', role: 'user', content: [{ type: 'input_text', text: ask }] });
  line('event_msg', { type: 'user_message', message: ask });
  let size = 4_000;
  for (let r = 0; r < shape.rounds; r++) {
    item({
      type: 'reasoning',
      summary: [{ type: 'summary_text', text: `Look at alarm part ${r}.` }],
    });
    item({
      type: 'message',
      role: 'assistant',
      content: [{ type: 'output_text', text: recallNote('alarm', r) }],
    });
    shell(
      `call_${r}_cat`,
      `sed -n '1,200p' src/alarm/part${r}.ts`,
      timerSource(`alarm${r}`, 100),
      size,
    );
    size += 2_600;
    item({
      type: 'custom_tool_call',
      status: 'completed',
      call_id: `call_${r}_patch`,
      name: 'apply_patch',
      input: `*** Begin Patch\n*** Update File: src/alarm/part${r}.ts\n@@\n-// alarm${r}: part of the kitchen timer (v1)\n+// alarm${r}: part of the kitchen timer (v2)\n*** End Patch`,
    });
    tokens(size);
    item({
      type: 'custom_tool_call_output',
      call_id: `call_${r}_patch`,
      output: JSON.stringify({
        output: `Success. Updated the following files:\nM src/alarm/part${r}.ts\n`,
        metadata: { exit_code: 0 },
      }),
    });
    shell(
      `call_${r}_test`,
      'npm test -- alarm',
      `PASS src/alarm/part${r}.test.ts\nTests: ${r + 2} passed`,
      size,
    );
    if (r === shape.compactAfter) {
      line(
        'compacted',
        {
          message: `Summary: alarm parts 0 to ${r} now ring three times; their tests pass. Next: the remaining parts.`,
        },
        70,
      );
      size = 5_000;
    }
  }
  item({
    type: 'message',
    role: 'assistant',
    content: [{ type: 'output_text', text: 'The alarm rings three times and every test passes.' }],
  });
  tokens(size);
  return `${lines.join('\n')}\n`;
}

/** A gemini-cli chat recording (`~/.gemini/tmp/<project hash>/chats/session-*.json`). */
export function geminiChat(shape: SessionShape): string {
  let clock = shape.start;
  const at = () => new Date((clock += 5_000)).toISOString();
  const messages: object[] = [
    {
      id: `${shape.id}-m0`,
      timestamp: at(),
      type: 'user',
      content: 'Add a snooze button to the timer screen.',
    },
  ];
  for (let r = 0; r < shape.rounds; r++) {
    const file = `src/screens/screen${r}.ts`;
    messages.push({
      id: `${shape.id}-m${r + 1}`,
      timestamp: at(),
      type: 'gemini',
      content: '',
      model: shape.model,
      tokens: { input: 3_000 + r * 2_500, output: 40 },
      toolCalls: [
        {
          id: `read_file-${r}`,
          name: 'read_file',
          args: { file_path: file },
          status: 'success',
          timestamp: at(),
          result: [
            {
              functionResponse: {
                id: `read_file-${r}`,
                name: 'read_file',
                response: { output: timerSource(`screen${r}`, 100) },
              },
            },
          ],
        },
      ],
    });
  }
  messages.push({
    id: `${shape.id}-end`,
    timestamp: at(),
    type: 'gemini',
    content: 'The snooze button is in place.',
    model: shape.model,
    tokens: { input: 3_000, output: 20 },
  });
  return JSON.stringify(
    {
      sessionId: shape.id,
      projectHash: 'f00d',
      startTime: new Date(shape.start).toISOString(),
      lastUpdated: new Date(clock).toISOString(),
      messages,
    },
    null,
    2,
  );
}

export const T0 = Date.UTC(2026, 10, 20, 9);
export { MINUTE };
