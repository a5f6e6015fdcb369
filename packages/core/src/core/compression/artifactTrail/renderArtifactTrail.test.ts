import { describe, expect, it } from 'vitest';
import { emptyArtifacts } from './collectArtifacts.js';
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
  a.commands.set('npm test', 'exit 1');
  a.commands.set('npm run build', 'exit 0; recall id r9876543210');
  a.commands.set('git status', 'exit 0');
  return a;
}

describe('renderArtifactTrail', () => {
  it('#11.3 leaves out what the kept history already names, unless its line carries a recall id', () => {
    const visible = 'ran `npm test` on src/seen.ts, then npm run build on src/old.ts';
    const text = renderArtifactTrail(artifacts(), [], 10_000, visible);
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
      a.commands.set(`cd ~/project && npm run test -- --grep case${i} 2>&1 | tail -5`, 'ok');
    const text = renderArtifactTrail(a, [], Math.floor(32_000 * TRAIL_SHARE * 4));
    expect(text).not.toContain('omitted');
    expect(text).toContain('case0 ');
    expect(text).toContain('module0/index.ts');
  });
});
