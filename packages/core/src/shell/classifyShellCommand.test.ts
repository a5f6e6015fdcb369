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
    expect(classifyShellCommand(command)).toMatchObject({ reads, writes });
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
    // #12 cross-check: the home directory is not a workspace path (was read as `<ws>/~/.bashrc`).
    'cat ~/.bashrc',
    'head -n 5 ~user/notes.txt',
  ])('%j is not an unambiguous file access', (command) => {
    expect(classifyShellCommand(command)).toBeUndefined();
  });

  it('treats quoted or escaped special characters as part of a plain file name', () => {
    expect(classifyShellCommand("cat 'a*b.txt' c\\$d")).toMatchObject({
      reads: ['a*b.txt', 'c$d'],
      writes: [],
    });
  });

  it('does not count a viewer whose output goes to a file as a read', () => {
    expect(classifyShellCommand('cat a.py > copy.py')).toMatchObject({
      reads: [],
      writes: ['copy.py'],
    });
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
    expect(classifyShellCommand(`${viewer} ${file}`)).toMatchObject({ reads: [file], writes: [] });
  });

  test.prop(
    [safePath, fc.string({ maxLength: 60 }).filter((s) => !s.split('\n').includes('EOF'))],
    {
      numRuns: 200,
    },
  )('a heredoc into a plain path writes exactly that path, whatever the body', (file, body) => {
    expect(classifyShellCommand(`cat > ${file} <<'EOF'\n${body}\nEOF`)).toMatchObject({
      reads: [],
      writes: [file],
    });
  });
});

describe('classifyShellCommand: what density may prune (outputIsReads)', () => {
  const only = (...reads: string[]) => ({ reads, writes: [], outputIsReads: true });
  const writes = (...files: string[]) => ({ reads: [], writes: files, outputIsReads: false });

  it.each([
    ['cat src/a.ts', only('src/a.ts')],
    ['cat -n src/a.ts', only('src/a.ts')],
    ['cat -A a.ts', only('a.ts')],
    ['cat a.ts b.ts', only('a.ts', 'b.ts')],
    ["cat 'my file.ts'", only('my file.ts')],
    ['cat my\\ file.ts', only('my file.ts')],
    ['nl -ba src/a.ts', only('src/a.ts')],
    ['head -n 40 src/a.ts', only('src/a.ts')],
    ['head -40 src/a.ts', only('src/a.ts')],
    ['head -c 10 a.ts', only('a.ts')],
    ['tail -n 20 log.txt', only('log.txt')],
    ["sed -n '1,80p' src/a.ts", only('src/a.ts')],
    ["sed -n '5,$p' src/a.ts", only('src/a.ts')],
    ["sed -n '/x/p' a.ts", only('a.ts')],
    ['cat a.ts | head -n 5', only('a.ts')],
    ['cd src && cat a.ts', only('src/a.ts')],
    ['cd $DIR && cat /etc/hosts', only('/etc/hosts')],
    ['cat a.ts 2>/dev/null', only('a.ts')],
  ])('%j prints only file content', (command, access) => {
    expect(classifyShellCommand(command)).toEqual(access);
  });

  it.each([
    ['cat a.ts; rm a.ts', ['a.ts'], []],
    ['cat a.ts || true', ['a.ts'], []],
    ['cat a.ts && sed -i s/a/b/ a.ts', ['a.ts'], ['a.ts']],
    ['cat a.ts && npm test', ['a.ts'], []],
    ['cat a.ts\nrm a.ts', ['a.ts'], []],
  ])(
    '%j reads but prints more than the files: not prunable as a read',
    (command, reads, written) => {
      expect(classifyShellCommand(command)).toEqual({
        reads,
        writes: written,
        outputIsReads: false,
      });
    },
  );

  it.each([
    ["sed -i 's/a/b/' src/a.ts", writes('src/a.ts')],
    ["sed -i.bak -e 's/a/b/' src/a.ts src/b.ts", writes('src/a.ts', 'src/b.ts')],
    ["sed -i '' 's/a/b/' src/a.ts", writes('src/a.ts')],
    ["sed -E -i 's/(a)/b/' src/a.ts", writes('src/a.ts')],
    ["cat > src/a.ts <<'EOF'\nexport const a = $x;\nEOF", writes('src/a.ts')],
    ['cat >> notes.md << "END"\nmore\nEND', writes('notes.md')],
    ['> src/a.ts', writes('src/a.ts')],
    [': > src/a.ts', writes('src/a.ts')],
    ["echo 'hello' > out.txt", writes('out.txt')],
    ["echo 'x' | tee out.txt", writes('out.txt')],
    ['tee -a out.txt <<EOF\nx\nEOF', writes('out.txt')],
    ['cat a.ts > b.ts', writes('b.ts')],
    ['head -n 5 a.ts > b.ts', writes('b.ts')],
    ['npm test | tee log.txt', writes('log.txt')],
  ])('%j writes', (command, access) => {
    expect(classifyShellCommand(command)).toEqual(access);
  });

  it.each([
    'npm test',
    'cat',
    'cat src/*.ts',
    'cat "$FILE"',
    'cat `ls`',
    'cat a.ts | grep x',
    'cat a.ts > /dev/null',
    'cat - ',
    'cat < a.ts',
    'sed s/a/b/ a.ts',
    'sed -i a.ts',
    'echo hi',
    'rm src/a.ts',
    'cp a.ts b.ts',
    '>-(',
    'echo x > -out',
    'cd $DIR && cat a.ts',
    'cd - && cat a.ts',
    'cd -P && cat a.ts',
  ])('%j is neither', (command) => {
    expect(classifyShellCommand(command)).toBeUndefined();
  });

  test.prop([fc.string({ maxLength: 60 })], { numRuns: 500 })(
    'never returns an empty or option-like path, and outputIsReads implies reads and no writes',
    (command) => {
      const access = classifyShellCommand(command);
      if (access === undefined) return;
      for (const p of [...access.reads, ...access.writes]) {
        expect(p).not.toBe('');
        expect(p.startsWith('-')).toBe(false);
      }
      if (access.outputIsReads) {
        expect(access.reads.length).toBeGreaterThan(0);
        expect(access.writes).toEqual([]);
      }
    },
  );
});
