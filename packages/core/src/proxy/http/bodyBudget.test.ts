import { describe, expect, it } from 'vitest';
import { BodyBudget, MEMORY_PER_BODY_BYTE } from './bodyBudget.js';

const MIB = 1024 * 1024;

describe('#34.5 the in-flight bound counts memory, not only body bytes', () => {
  it('#34.5 two 32 MiB bodies do not fit in 256 MiB together: each holds ~5 times its size while processed', () => {
    const budget = new BodyBudget(256 * MIB, { maxBodyBytes: 32 * MIB });
    expect(budget.tryTake(32 * MIB)).toBe(true);
    expect(budget.heldBytes).toBe(32 * MIB * MEMORY_PER_BODY_BYTE);
    expect(budget.tryTake(32 * MIB)).toBe(false);
    expect(budget.tryTake(8 * MIB)).toBe(true);
    budget.give(32 * MIB);
    budget.give(8 * MIB);
    expect(budget.heldBytes).toBe(0);
  });

  it('#34.5 a body of the largest size allowed always fits alone, taken chunk by chunk', () => {
    const budget = new BodyBudget(100 * MIB, { maxBodyBytes: 64 * MIB });
    for (let i = 0; i < 64; i++) expect(budget.tryTake(MIB)).toBe(true);
    expect(budget.tryTake(1)).toBe(false);
  });

  it('#34.5 without options the bound admits what it admitted when it counted body bytes', () => {
    const budget = new BodyBudget(1000);
    expect(budget.tryTake(600)).toBe(true);
    expect(budget.tryTake(400)).toBe(true);
    expect(budget.tryTake(1)).toBe(false);
    budget.give(5000);
    expect(budget.heldBytes).toBe(0);
  });
});
