import { describe, expect, it } from 'vitest';
import { requiresAuth } from './requiresAuth.js';
import { newTokenSecret } from './tokenSecret.js';
import { withoutDenseCredentials } from './withoutDenseCredentials.js';

describe('withoutDenseCredentials', () => {
  it('#36.4 the x-dense-token header is removed; everything else, the provider key too, is kept', () => {
    const token = newTokenSecret();
    const headers = {
      'x-dense-token': token,
      'x-api-key': 'sk-ant-provider-key',
      'anthropic-version': '2023-06-01',
      'content-type': 'application/json',
      'set-cookie': ['a=1', 'b=2'],
    };
    const out = withoutDenseCredentials(headers);
    expect(out).toEqual({
      'x-api-key': 'sk-ant-provider-key',
      'anthropic-version': '2023-06-01',
      'content-type': 'application/json',
      'set-cookie': ['a=1', 'b=2'],
    });
    expect(JSON.stringify(out)).not.toContain(token);
    expect(headers['x-dense-token']).toBe(token);
  });

  it("#36.4 Authorization with the provider's key is untouched; with a Dense token it is removed", () => {
    for (const key of ['Bearer sk-proj-abc123', 'Bearer sk-ant-oat01-xyz', 'Basic dXNlcjpwYXNz']) {
      expect(withoutDenseCredentials({ authorization: key })).toEqual({ authorization: key });
    }
    const token = newTokenSecret();
    expect(withoutDenseCredentials({ authorization: `Bearer ${token}`, 'x-api-key': 'k' })).toEqual(
      {
        'x-api-key': 'k',
      },
    );
    expect(withoutDenseCredentials({ authorization: `bearer  ${token} ` })).toEqual({});
  });
});

describe('requiresAuth', () => {
  it('#36.4 loopback binds make tokens optional; every other address requires them', () => {
    for (const host of [
      '127.0.0.1',
      '127.1.2.3',
      '::1',
      '[::1]',
      'localhost',
      'LOCALHOST',
      '::ffff:127.0.0.1',
    ]) {
      expect(requiresAuth(host)).toBe(false);
    }
    for (const host of [
      '0.0.0.0',
      '::',
      '',
      '10.0.0.5',
      '192.168.1.2',
      'gateway.internal',
      '::ffff:10.0.0.1',
      '128.0.0.1',
      'localhost.evil.test',
    ]) {
      expect(requiresAuth(host)).toBe(true);
    }
  });
});
