import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { classifyShellCommand } from './classifyShellCommand.js';
import { tokenizeShell } from './shellWords.js';

describe('tokenizeShell', () => {
  it('resolves quotes and escapes into words', () => {
    expect(tokenizeShell(`echo "a b" 'c d' e\\ f`)).toEqual([
      { kind: 'word', value: 'echo', literal: true },
      { kind: 'word', value: 'a b', literal: true },
      { kind: 'word', value: 'c d', literal: true },
      { kind: 'word', value: 'e f', literal: true },
    ]);
  });

  it('marks words with variables, globs or substitutions as non-literal', () => {
    const words = tokenizeShell('cat $F *.py "$(pwd)/x" ok').filter((t) => t.kind === 'word');
    expect(words.map((w) => (w.kind === 'word' ? w.literal : undefined))).toEqual([
      true,
      false,
      false,
      false,
      true,
    ]);
  });

  it('skips heredoc bodies and keeps the line that opens them', () => {
    const tokens = tokenizeShell("cat > out.txt <<'EOF'\n> not a redirect\nEOF\nls");
    const values = tokens.map((t) => t.value);
    expect(values).toEqual(['cat', '>', 'out.txt', '<<', 'EOF', '\n', '\n', 'ls']);
  });

  it('records the descriptor of a redirection and drops descriptor duplication', () => {
    const tokens = tokenizeShell('make 2> err.log >&2 2>&1 &> all.log');
    expect(tokens.filter((t) => t.kind === 'op')).toEqual([
      { kind: 'op', value: '>', fd: '2' },
      { kind: 'op', value: '>', fd: '&' },
    ]);
  });
});

describe('classifyShellCommand', () => {
  it.each([
    ['cat src/a.py', ['src/a.py'], []],
    ['cat a.py b.py', ['a.py', 'b.py'], []],
    ["nl -ba src/a.py | sed -n '10,40p'", ['src/a.py'], []],
    ["sed -n '1,50p' lib/x.js", ['lib/x.js'], []],
    ['head -n 20 README.md', ['README.md'], []],
    ['tail -5 log.txt | head -2', ['log.txt'], []],
    ['cd /repo && cat setup.py 2>/dev/null', ['/repo/setup.py'], []],
    ['cd sub; sed -n 5p f.txt', ['sub/f.txt'], []],
    ["sed -i 's/a/b/' x.py y.py", [], ['x.py', 'y.py']],
    ["sed -i.bak -e 's/a/b/' z.py", [], ['z.py']],
    ["cat > new.py <<'EOF'\nprint(1)\nEOF", [], ['new.py']],
    ['cat <<EOF > out.txt\nhello > not.txt\nEOF', [], ['out.txt']],
    ['echo hi >> log.txt && python run.py > /dev/null 2>&1', [], ['log.txt']],
    ['tee notes.md <<< "x"', [], ['notes.md']],
    ['grep -n foo a.py > hits.txt', [], ['hits.txt']],
    ['sudo cat /etc/hosts', ['/etc/hosts'], []],
  ])('%j reads %j and writes %j', (command, reads, writes) => {
    expect(classifyShellCommand(command)).toEqual({ reads, writes });
  });

  it.each([
    'ls -la',
    'cat a.py | grep foo',
    'cat $FILE',
    'cat *.py',
    "python - <<'EOF'\nopen('z.py', 'w').write('x')\nEOF",
    'cat a.py > /dev/null && false',
    'sed "s/a/b/" a.py',
    'cat',
  ])('%j is not an unambiguous file access', (command) => {
    expect(classifyShellCommand(command)).toBeUndefined();
  });

  it('treats quoted or escaped special characters as part of a plain file name', () => {
    expect(classifyShellCommand("cat 'a*b.txt' c\\$d")).toEqual({
      reads: ['a*b.txt', 'c$d'],
      writes: [],
    });
  });

  it('does not count a viewer whose output goes to a file as a read', () => {
    expect(classifyShellCommand('cat a.py > copy.py')).toEqual({ reads: [], writes: ['copy.py'] });
  });

  test.prop([fc.string({ maxLength: 200 })], { numRuns: 300 })(
    'never throws and never reports an empty path, stdin or a device',
    (command) => {
      const access = classifyShellCommand(command);
      for (const file of [...(access?.reads ?? []), ...(access?.writes ?? [])]) {
        expect(file).not.toBe('');
        expect(file).not.toBe('-');
        expect(file.startsWith('/dev/')).toBe(false);
      }
    },
  );

  const safePath = fc.stringMatching(/^[a-z][a-z0-9_]{0,8}(\/[a-z0-9_]{1,8}){0,3}\.[a-z]{1,3}$/);

  test.prop([safePath, fc.constantFrom('cat', 'nl -ba', 'head -n 5', "sed -n '1,9p'")], {
    numRuns: 200,
  })('any viewer of one plain path reads exactly that path', (file, viewer) => {
    expect(classifyShellCommand(`${viewer} ${file}`)).toEqual({ reads: [file], writes: [] });
  });

  test.prop(
    [safePath, fc.string({ maxLength: 60 }).filter((s) => !s.split('\n').includes('EOF'))],
    {
      numRuns: 200,
    },
  )('a heredoc into a plain path writes exactly that path, whatever the body', (file, body) => {
    expect(classifyShellCommand(`cat > ${file} <<'EOF'\n${body}\nEOF`)).toEqual({
      reads: [],
      writes: [file],
    });
  });
});
