import { describe, expect, it } from 'vitest';
import { SETTING_KEYS } from '@dense/core';
import { completeInput } from './completeInput.js';

const context = { profileNames: ['lean', 'work'] };

describe('completeInput', () => {
  it('completes command names', () => {
    expect(completeInput('/set', context)).toEqual({ text: '/set ', candidates: ['set'] });
    expect(completeInput('/se', context)?.candidates).toEqual(['set', 'sessions']);
    expect(completeInput('/c', context)?.candidates).toEqual(['context', 'compress', 'clear']);
    expect(completeInput('/co', context)).toEqual({
      text: '/co',
      candidates: ['context', 'compress'],
    });
  });

  it('completes setting keys as far as they agree, listing the candidates', () => {
    expect(completeInput('/set compression.st', context)).toEqual({
      text: '/set compression.strategy ',
      candidates: ['compression.strategy'],
    });
    const density = completeInput('/set compression.de', context);
    expect(density?.text).toBe('/set compression.density.');
    expect(density?.candidates).toEqual(
      SETTING_KEYS.filter((key) => key.startsWith('compression.density.')),
    );
    expect(density?.candidates.length).toBeGreaterThan(1);
  });

  it('completes enum values and booleans for the key being set', () => {
    expect(completeInput('/set compression.strategy hi', context)).toEqual({
      text: '/set compression.strategy high-density ',
      candidates: ['high-density'],
    });
    expect(completeInput('/set compression.density.recencyPruning t', context)?.text).toBe(
      '/set compression.density.recencyPruning true ',
    );
    expect(completeInput('/set unset compression.pro', context)?.text).toBe(
      '/set unset compression.profile ',
    );
  });

  it('completes profile subcommands and names', () => {
    expect(completeInput('/profile lo', context)?.text).toBe('/profile load ');
    expect(completeInput('/profile load w', context)?.text).toBe('/profile load work ');
  });

  it('does nothing outside slash commands or past what a command completes', () => {
    expect(completeInput('hello', context)).toBeUndefined();
    expect(completeInput('/help x', context)).toEqual({ text: '/help x', candidates: [] });
    expect(completeInput('/set compression.strategy high-density x', context)?.candidates).toEqual(
      [],
    );
  });
});
