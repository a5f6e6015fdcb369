import { describe, expect, it } from 'vitest';
import { GrowthTracker } from './growthTracker.js';

describe('GrowthTracker (issue 14.3)', () => {
  it('#14.3 the mean growth per call over the last sends; drops (compression) are not growth', () => {
    const growth = new GrowthTracker();
    expect(growth.perCall()).toBe(0);
    growth.onSend(1_000);
    expect(growth.perCall()).toBe(0);
    growth.onSend(1_600);
    growth.onSend(400); // compressed
    growth.onSend(700);
    expect(growth.perCall()).toBe((600 + 0 + 300) / 3);
  });

  it('#14.3 only the last six sends count', () => {
    const growth = new GrowthTracker();
    growth.onSend(0);
    growth.onSend(10_000);
    for (let i = 1; i <= 5; i++) growth.onSend(10_000 + i * 100);
    expect(growth.perCall()).toBe(100);
  });
});
