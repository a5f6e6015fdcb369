import { describe, expect, it } from 'vitest';
import { recentTokenCounts } from './recentTokenCounts.js';

function counting(count: (text: string) => number | Promise<number>) {
  const asked: string[] = [];
  return {
    asked,
    counter: {
      countText: (text: string) => {
        asked.push(text);
        return count(text);
      },
    },
  };
}

describe('recentTokenCounts', () => {
  it('#22.18 counts a text once while it is among the last few, again once it has dropped out', () => {
    const { asked, counter } = counting((text) => text.length);
    const recent = recentTokenCounts(counter, 2);
    expect([recent.countText('aaa'), recent.countText('aaa')]).toEqual([3, 3]);
    // 'aaa' is still remembered (and becomes the newest); 'cc' pushes 'b' out.
    const later = ['b', 'aaa', 'cc', 'b'].map((text) => recent.countText(text));
    expect(later).toEqual([1, 3, 2, 1]);
    expect(asked).toEqual(['aaa', 'b', 'cc', 'b']);
  });

  it('#22.18 an async count is shared while pending and a failed one is asked again', async () => {
    let fail = true;
    const { asked, counter } = counting((text) =>
      fail ? Promise.reject(new Error('count endpoint down')) : Promise.resolve(text.length),
    );
    const recent = recentTokenCounts(counter);
    await expect(recent.countText('xy')).rejects.toThrow('count endpoint down');
    fail = false;
    const [a, b] = [recent.countText('xy'), recent.countText('xy')];
    expect(await Promise.all([a, b])).toEqual([2, 2]);
    expect(await recent.countText('xy')).toBe(2);
    expect(asked).toEqual(['xy', 'xy']);
  });
});
