import { describe, expect, it } from 'vitest';
import { emptyArtifacts, type Artifacts } from './collectArtifacts.js';
import { renderArtifactTrail } from './renderArtifactTrail.js';
import { TRAIL_SHARE } from './ArtifactTrailKeeper.js';

function artifacts() {
  const a = emptyArtifacts();
  a.files.set('src/seen.ts', {
    read: true,
    created: false,
    changed: false,
    deleted: false,
    recallIds: [],
  });
  a.files.set('src/old.ts', {
    read: true,
    created: false,
    changed: false,
    deleted: false,
    recallIds: ['r0123456789'],
  });
  a.commands.set('npm test', { status: 'exit 1', recallIds: [] });
  a.commands.set('npm run build', { status: 'exit 0', recallIds: ['r9876543210'] });
  a.commands.set('git status', { status: 'exit 0', recallIds: [] });
  return a;
}

describe('renderArtifactTrail', () => {
  it('#11.3 leaves out what the kept history already names, unless its line carries a recall id', () => {
    const visible = 'ran `npm test` on src/seen.ts, then npm run build on src/old.ts';
    const text = renderArtifactTrail(artifacts(), [], 10_000, {
      text: visible,
      recallIds: new Set(),
    });
    expect(text).not.toContain('src/seen.ts');
    expect(text).not.toContain('`npm test`');
    expect(text).toContain('src/old.ts: read; recall id r0123456789');
    expect(text).toContain('`npm run build` → exit 0; recall id r9876543210');
    expect(text).toContain('`git status` → exit 0');
  });

  it('#11.3 without a kept history every artifact is listed', () => {
    const text = renderArtifactTrail(artifacts(), [], 10_000);
    for (const name of [
      'src/seen.ts',
      'src/old.ts',
      '`npm test`',
      '`npm run build`',
      '`git status`',
    ])
      expect(text).toContain(name);
  });

  it('#11.3 at a 32k window the trail holds a long session: 40 files and 220 commands, none omitted', () => {
    const a = emptyArtifacts();
    for (let i = 0; i < 40; i++)
      a.files.set(`/home/dev/project/src/module${i}/index.ts`, {
        read: true,
        created: false,
        changed: i % 3 === 0,
        deleted: false,
        recallIds: [`r${String(i).padStart(10, '0')}`],
      });
    for (let i = 0; i < 220; i++)
      a.commands.set(`cd ~/project && npm run test -- --grep case${i} 2>&1 | tail -5`, {
        status: 'ok',
        recallIds: [],
      });
    const text = renderArtifactTrail(a, [], Math.floor(32_000 * TRAIL_SHARE * 4));
    expect(text).not.toContain('omitted');
    expect(text).toContain('case0 ');
    expect(text).toContain('module0/index.ts');
  });

  it('#32.6 a command or other output names its recall id only while the kept history does not show it', () => {
    const a: Artifacts = emptyArtifacts();
    a.commands.set('cat src/a.ts | grep foo', { status: 'exit 0', recallIds: ['r1111111111'] });
    a.commands.set('ls', { status: 'ok', recallIds: ['r2222222222'] });
    a.results.set('grep_search "bar"', { status: 'ok', recallIds: ['r3333333333'] });
    a.results.set('web_fetch https://example.test', { status: 'ok', recallIds: ['r4444444444'] });
    // `ls` and the fetch are still shown whole (their ids in view), and named: no line.
    const view = {
      text: 'ran ls, then web_fetch https://example.test',
      recallIds: new Set(['r2222222222', 'r4444444444']),
    };
    const text = renderArtifactTrail(a, [], 10_000, view);
    expect(text).toContain('- `cat src/a.ts | grep foo` → exit 0; recall id r1111111111');
    expect(text).toContain(
      'Other tool outputs:\n- `grep_search "bar"` → ok; recall id r3333333333',
    );
    expect(text).not.toContain('`ls`');
    expect(text).not.toContain('example.test');
  });

  it('#32.6 an output known only by a pointer (no status) is listed by its id', () => {
    const a: Artifacts = emptyArtifacts();
    a.commands.set('pytest -x', { status: '', recallIds: ['r5555555555'] });
    expect(renderArtifactTrail(a, [], 10_000)).toContain('- `pytest -x` → recall id r5555555555');
  });

  it('#32.6 commands over the budget: the omitted ones keep their recall ids in one older-outputs line', () => {
    const a: Artifacts = emptyArtifacts();
    const id = (i: number) => `r${String(i).padStart(10, '0')}`;
    for (let i = 0; i < 60; i++)
      a.commands.set(`cd ~/project && npm run test -- --grep case${i} 2>&1 | tail -5`, {
        status: 'exit 0',
        recallIds: [id(i)],
      });
    const text = renderArtifactTrail(a, [], 3_000);
    expect(text.length).toBeLessThanOrEqual(3_000);
    const omitted = Number(/\((\d+) older omitted\)/.exec(text)?.[1]);
    expect(omitted).toBeGreaterThan(0);
    expect(text).toContain(`- older outputs: recall id ${id(0)}; recall id ${id(1)}; `);
    for (let i = 0; i < 60; i++) expect(text).toContain(`recall id ${id(i)}`);
    expect(text).toContain('case59 ');
    expect(text).not.toContain('case0 ');
  });

  it('#33.3 the newest failure goes in whatever the budget, as the todo list does; older ones as they fit', () => {
    const a: Artifacts = emptyArtifacts();
    a.tried.push(
      { command: 'npm run build', failure: 'exit 2: error TS2304: Cannot find name scanIdent' },
      { command: 'write_file src/lex.ts', failure: 'failed: File has not been read yet.' },
    );
    const todos = [{ id: '1', content: 'Accept unicode identifiers', status: 'pending' as const }];
    const text = renderArtifactTrail(a, todos, 40);
    expect(text).toContain('Accept unicode identifiers');
    expect(text).toContain('Tried and failed: (1 older omitted)');
    expect(text).toContain('- `write_file src/lex.ts` → failed: File has not been read yet.');
    expect(text).not.toContain('npm run build');
    expect(renderArtifactTrail(a, todos, 10_000)).toContain('npm run build');
  });

  it('#33.3 the newest failure kept past the budget takes nothing from the sections after it', () => {
    const a: Artifacts = emptyArtifacts();
    a.tried.push({ command: 'npm run build', failure: `exit 2: ${'error TS2304 '.repeat(12)}` });
    a.files.set('src/lex.ts', {
      read: true,
      created: false,
      changed: false,
      deleted: false,
      recallIds: ['r0123456789'],
    });
    // Room for the header and the file line, not for the failure's line.
    const text = renderArtifactTrail(a, [], 160);
    expect(text).toContain('- `npm run build` → exit 2: error TS2304');
    expect(text).toContain('- src/lex.ts: read; recall id r0123456789');
  });
});
