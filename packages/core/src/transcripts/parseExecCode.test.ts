import { describe, expect, it } from 'vitest';
import { parseExecCode } from './parseExecCode.js';
import { execCallFailed, readExecOutput } from './readExecOutput.js';

const PATCH = '*** Begin Patch\n*** Update File: notes.txt\n@@\n-beta\n+BETA\n*** End Patch';
const HEADER = 'Script completed\nWall time 0.2 seconds\nOutput:\n';

describe('parseExecCode: supported forms', () => {
  const command = (cmd: string, extra: Record<string, unknown> = {}) => ({
    kind: 'calls',
    calls: [{ tool: 'exec_command', parameters: { cmd, ...extra } }],
  });

  it.each([
    ['const r = await tools.exec_command({cmd: "cat notes.txt"});\ntext(r.output);', false],
    ['text(await tools.exec_command({cmd: "cat notes.txt"}));', true],
    ['text((await tools.exec_command({ cmd: "cat notes.txt" })).output)', false],
    ["await tools.exec_command({'cmd': 'cat notes.txt'})", false],
    ['let out = await tools.exec_command({cmd: `cat notes.txt`})\ntext(out)', true],
    [
      '// @exec: {"yield_time_ms": 10000}\nvar r = await tools.exec_command({cmd:"cat notes.txt",});',
      false,
    ],
    [
      '/* read it */ const r = await tools.exec_command({cmd: "cat notes.txt"}); text(r.output); text(r)',
      true,
    ],
  ])('#24.3 %s', (code, showsResult) => {
    expect(parseExecCode(code)).toEqual({ ...command('cat notes.txt'), showsResult });
  });

  it('#24.3 literal options are kept; workdir, escapes and unicode are read as JavaScript reads them', () => {
    const code =
      'await tools.exec_command({cmd: "sed -n \'1,5p\' a\\u002ets\\n", workdir: "/w", tty: false, ' +
      'yield_time_ms: 1e3, prefix_rule: ["sed"], justification: "x", login: true})';
    expect(parseExecCode(code)).toEqual({
      ...command("sed -n '1,5p' a.ts\n", {
        workdir: '/w',
        tty: false,
        yield_time_ms: 1000,
        prefix_rule: ['sed'],
        justification: 'x',
        login: true,
      }),
      showsResult: false,
    });
  });

  it('#24.3 apply_patch with a quoted or template literal, one or several in one script', () => {
    const quoted = `text(await tools.apply_patch(${JSON.stringify(PATCH)}));`;
    expect(parseExecCode(quoted)).toEqual({
      kind: 'calls',
      calls: [{ tool: 'apply_patch', patch: PATCH }],
      showsResult: false,
    });
    const template = `await tools.apply_patch(\`${PATCH}\`);\r\nawait tools.apply_patch(\`${PATCH}\`)`;
    const parsed = parseExecCode(template);
    expect(parsed).toMatchObject({ kind: 'calls' });
    expect(parsed.kind === 'calls' ? parsed.calls : []).toEqual([
      { tool: 'apply_patch', patch: PATCH },
      { tool: 'apply_patch', patch: PATCH },
    ]);
  });
});

describe('parseExecCode: everything else fails open', () => {
  it.each([
    [
      'for (const f of ["a", "b"]) await tools.exec_command({cmd: "cat " + f})',
      'unsupported syntax',
    ],
    ['const f = "a.ts"; await tools.exec_command({cmd: f})', 'unsupported statement'],
    ['await tools.exec_command({cmd: `cat ${f}`})', 'unsupported syntax'],
    ['await tools.exec_command({cmd: "cat " + "a"})', 'unsupported syntax'],
    [
      'await tools.exec_command({cmd: "cat a"}); await tools.exec_command({cmd: "cat b"})',
      'several commands',
    ],
    [
      `await tools.apply_patch("${'x'}"); await tools.exec_command({cmd: "cat a"})`,
      'several commands',
    ],
    ['await tools.exec_command("cat a")', 'unsupported arguments'],
    ['await tools.exec_command({cmd: "cat a", shell: "python3"})', 'unsupported arguments'],
    ['await tools.exec_command({cmd: "cat a", cmd: "cat b"})', 'unsupported arguments'],
    ['await tools.exec_command({workdir: "/w"})', 'unsupported arguments'],
    ['await tools.exec_command({cmd: "cat a", ...rest})', 'unsupported arguments'],
    ['await tools.apply_patch({input: "x"})', 'unsupported arguments'],
    ['await tools.write_stdin({session_id: 1, chars: "y"})', 'unsupported tool'],
    ['tools.exec_command({cmd: "cat a"})', 'unsupported statement'],
    ['await tools["exec_command"]({cmd: "cat a"})', 'unsupported statement'],
    ['try { await tools.apply_patch("x") } catch (e) { text(String(e)) }', 'unsupported statement'],
    ['const tools = other; await tools.exec_command({cmd: "cat a"})', 'unsupported statement'],
    [
      'const r = await tools.exec_command({cmd: "cat a"}); text(r.output.slice(0, 10))',
      'unsupported statement',
    ],
    ['text(r.output)', 'unsupported statement'],
    ['await tools.exec_command({cmd: "cat a"})\n[0]', 'unsupported statement'],
    ['await tools.exec_command({cmd: "cat a"}).output', 'unsupported statement'],
    ['await tools.exec_command({cmd: "cat \\a"})', 'unsupported syntax'],
    ['await tools.exec_command({cmd: "cat a', 'unsupported syntax'],
    ['/* unterminated await tools.exec_command({cmd: "cat a"})', 'unsupported syntax'],
    ['text("hello")', 'unsupported statement'],
    ['', 'no tool call'],
    ['// nothing', 'no tool call'],
  ])('#24.3 %s', (code, reason) => {
    expect(parseExecCode(code)).toEqual({ kind: 'opaque', reason });
  });
});

describe('readExecOutput / execCallFailed', () => {
  const parsed = (code: string) => {
    const parse = parseExecCode(code);
    if (parse.kind !== 'calls') throw new Error('test code must parse');
    return parse;
  };
  const outputCode = parsed(
    'const r = await tools.exec_command({cmd: "sed -i s/a/b/ f"}); text(r.output)',
  );
  const wholeCode = parsed('text(await tools.exec_command({cmd: "sed -i s/a/b/ f"}))');
  const result = (exitCode: number) =>
    JSON.stringify({ wall_time_seconds: 0.1, exit_code: exitCode, output: '' });

  it('#24.3 a script that did not complete fails; one that completed succeeds unless told otherwise', () => {
    const failed = readExecOutput([
      'Script failed\nWall time 0.0 seconds\nOutput:\n',
      'Script error:\napply_patch verification failed: x',
    ]);
    expect(failed.completed).toBe(false);
    expect(execCallFailed({ parse: outputCode, output: failed, needsExitCode: false })).toBe(true);
    const running = readExecOutput([
      'Script running with cell ID 7\nWall time 10.0 seconds\nOutput:\n',
    ]);
    expect(execCallFailed({ parse: outputCode, output: running, needsExitCode: false })).toBe(true);
    const done = readExecOutput([HEADER]);
    expect(execCallFailed({ parse: outputCode, output: done, needsExitCode: false })).toBe(false);
  });

  it('#24.3 a command that changes files succeeds only with a shown exit code 0', () => {
    const shownOk = readExecOutput([HEADER, result(0)]);
    const shownBad = readExecOutput([HEADER, result(1)]);
    expect(execCallFailed({ parse: wholeCode, output: shownOk, needsExitCode: true })).toBe(false);
    expect(execCallFailed({ parse: wholeCode, output: shownBad, needsExitCode: true })).toBe(true);
    expect(execCallFailed({ parse: wholeCode, output: shownBad, needsExitCode: false })).toBe(true);
    // Only `.output` shown: the exit code is unknown, even if the output looks like a result.
    expect(execCallFailed({ parse: outputCode, output: shownOk, needsExitCode: true })).toBe(true);
    expect(execCallFailed({ parse: outputCode, output: shownBad, needsExitCode: false })).toBe(
      false,
    );
  });
});
