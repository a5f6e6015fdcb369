import { describe, expect, it } from 'vitest';
import { fc, test } from '@fast-check/vitest';
import { oracleShellEffect } from './oracleShell.js';

const shows = (command: string) => oracleShellEffect(command)?.shows ?? [];
const changes = (command: string) => oracleShellEffect(command)?.changes ?? [];

describe('#12 the oracle reads shell commands on its own', () => {
  it('viewers show files: cat/nl whole, head/tail/sed -n partly, and from `< file`', () => {
    expect(oracleShellEffect('cat src/a.py')).toEqual({
      shows: ['src/a.py'],
      partial: false,
      changes: [],
    });
    expect(oracleShellEffect('nl -ba a.py | sed -n "10,20p"')?.partial).toBe(true);
    expect(oracleShellEffect('head -n 40 a.py')).toEqual({
      shows: ['a.py'],
      partial: true,
      changes: [],
    });
    expect(shows('cat < a.py')).toEqual(['a.py']);
    expect(shows("sed -n '1,80p' a.py b.py")).toEqual(['a.py', 'b.py']);
    expect(shows('cat a.py | grep def')).toEqual(['a.py']);
    expect(oracleShellEffect('cat a.py | grep def')?.partial).toBe(true);
  });

  it('output that does not reach the result, or is no longer the file, shows nothing', () => {
    expect(shows('cat a.py > b.py')).toEqual([]);
    expect(shows('cat a.py | python -')).toEqual([]);
    expect(shows('cat a.py | wc -l')).toEqual([]);
    expect(shows('grep -n def a.py')).toEqual([]);
    expect(shows("sed 's/a/b/' a.py")).toEqual([]); // prints the edited text, not the file
    expect(shows('cat $F')).toEqual([]);
    expect(shows('cat *.py')).toEqual([]);
    expect(shows('cat -- -weird')).toEqual([]);
  });

  it('writes: redirections, heredocs, tee, sed -i, perl -i, rm, mv, cp, git checkout --', () => {
    expect(changes("cat > t.py <<'EOF'\nimport os\ncat secret.txt\nEOF")).toEqual(['t.py']);
    expect(shows("cat > t.py <<'EOF'\ncat secret.txt\nEOF")).toEqual([]);
    expect(changes('echo x >> log.txt 2>&1')).toEqual(['log.txt']);
    expect(changes('echo x | tee -a a.txt b.txt')).toEqual(['a.txt', 'b.txt']);
    expect(changes("sed -i 's/a/b/' a.py")).toEqual(['a.py']);
    expect(changes("sed -i '' -e 's/a/b/' a.py")).toEqual(['a.py']);
    expect(changes("perl -pi -e 's/a/b/' a.py")).toEqual(['a.py']);
    expect(changes('rm -f a.py && mv b.py c.py && cp d.py e.py')).toEqual([
      'a.py',
      'b.py',
      'c.py',
      'e.py',
    ]);
    expect(changes('git checkout -- a.py')).toEqual(['a.py']);
    expect(changes('python t.py > /dev/null 2>&1')).toEqual([]);
  });

  it('follows cd, and drops relative paths after a cd it cannot name', () => {
    expect(shows('cd src && cat a.py')).toEqual(['src/a.py']);
    expect(shows('cd /repo; cat a.py; cd sub; cat b.py')).toEqual(['/repo/a.py', '/repo/sub/b.py']);
    expect(shows('cd $HOME && cat a.py /etc/hosts')).toEqual(['/etc/hosts']);
  });

  it('quotes and escapes are resolved; comments are not commands', () => {
    expect(shows('cat "my file.py" \'b c.py\' d\\ e.py')).toEqual([
      'my file.py',
      'b c.py',
      'd e.py',
    ]);
    expect(shows('echo hi # cat a.py')).toEqual([]);
    expect(shows('cat "$DIR/a.py"')).toEqual([]);
    expect(oracleShellEffect('toString valueOf.py')).toBeUndefined();
  });

  test.prop([fc.string({ maxLength: 60 })], { numRuns: 300 })(
    'never throws, and every path it names is one the command spells out',
    (command) => {
      const effect = oracleShellEffect(command);
      for (const file of [...(effect?.shows ?? []), ...(effect?.changes ?? [])]) {
        expect(file.length).toBeGreaterThan(0);
        expect(file.startsWith('-')).toBe(false);
      }
    },
  );
});
