import { describe, expect, it } from 'vitest';
import { formatFileInclusion } from '../core/compression/densityVocabulary.js';
import { human, toolRoundTrip } from '../test-utils/historyBuilders.js';
import { resolveToolPath } from '../core/compression/density/toolParameters.js';
import { translateWindowsPaths, windowsToPosix } from './translateWindowsPaths.js';

describe('translateWindowsPaths', () => {
  it('rewrites Windows paths in tool parameters and inclusion markers, and the workspace', () => {
    const contents = [
      ...toolRoundTrip('r1', 'read_file', { file_path: 'src\\a.py' }, 'x'),
      ...toolRoundTrip(
        'w1',
        'replace',
        { file_path: 'C:\\Proj\\src\\a.py', old_string: 'a\\b' },
        'ok',
      ),
      human(`see\n${formatFileInclusion('C:\\Proj\\notes.md', 'n')}`),
      ...toolRoundTrip(
        'm1',
        'read_many_files',
        { paths: ['C:\\Proj\\x.md'] },
        formatFileInclusion('C:\\Proj\\x.md', 'y'),
      ),
    ];
    const { contents: out, workspaceRoot } = translateWindowsPaths(contents, 'C:\\Proj');
    expect(workspaceRoot).toBe('/C:/Proj');
    const params = out.flatMap((e) =>
      e.blocks.flatMap((b) => (b.type === 'tool_call' ? [b.parameters] : [])),
    );
    expect(params).toEqual([
      { file_path: 'src/a.py' },
      { file_path: '/C:/Proj/src/a.py', old_string: 'a\\b' },
      { paths: ['/C:/Proj/x.md'] },
    ]);
    expect(JSON.stringify(out[4])).toContain('--- /C:/Proj/notes.md --- [');
    expect(JSON.stringify(out[6])).toContain('--- /C:/Proj/x.md --- [');
    // What density sees now: the relative read and the absolute write are one file.
    expect(resolveToolPath('src/a.py', workspaceRoot)).toBe(
      resolveToolPath('/C:/Proj/src/a.py', workspaceRoot),
    );
  });

  it('leaves POSIX sessions untouched (same objects)', () => {
    const contents = toolRoundTrip('r1', 'read_file', { file_path: 'a\\b.py' }, 'x');
    const result = translateWindowsPaths(contents, '/work');
    expect(result.contents).toBe(contents);
    expect(windowsToPosix('D:/x\\y')).toBe('/D:/x/y');
  });
});
