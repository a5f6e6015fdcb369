import { describe, expect, it } from 'vitest';
import { answeredWithin, NoAnswerInTime } from './answeredWithin.js';

describe('answeredWithin', () => {
  it('#36.2 an answer in time is passed on; a failure in time too', async () => {
    await expect(answeredWithin(Promise.resolve(7), 50)).resolves.toBe(7);
    await expect(answeredWithin(Promise.reject(new Error('refused')), 50)).rejects.toThrow(
      'refused',
    );
  });

  it('#36.2 a silent service is given up on after the time, with a typed error', async () => {
    const silent = new Promise<number>(() => undefined);
    const started = Date.now();
    const error: unknown = await answeredWithin(silent, 30).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NoAnswerInTime);
    expect((error as NoAnswerInTime).code).toBe('NO_ANSWER_IN_TIME');
    expect((error as NoAnswerInTime).message).toBe('no answer in 30 ms');
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('#36.2 a failure after the time is dropped, not left unhandled', async () => {
    let fail: (error: Error) => void = () => undefined;
    const late = new Promise<number>((_, reject) => {
      fail = reject;
    });
    await expect(answeredWithin(late, 10)).rejects.toBeInstanceOf(NoAnswerInTime);
    fail(new Error('too late'));
    await new Promise((resolve) => setImmediate(resolve));
  });
});
