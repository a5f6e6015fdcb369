import { describe, expect, it } from 'vitest';
import { DEFAULT_PROXY_PORT } from '../commands/proxy.js';
import { STATUSLINE_DEFAULT_PORT, statuslineProxyUrl } from './statuslineProxyUrl.js';

describe('dense statusline: where the proxy is', () => {
  it("#37.2 DENSE_PROXY_URL first, then a loopback ANTHROPIC_BASE_URL, else dense proxy's default", () => {
    expect(STATUSLINE_DEFAULT_PORT).toBe(DEFAULT_PROXY_PORT);
    expect(
      statuslineProxyUrl({
        DENSE_PROXY_URL: 'http://127.0.0.1:9000/',
        ANTHROPIC_BASE_URL: 'http://127.0.0.1:9100',
      }),
    ).toBe('http://127.0.0.1:9000');
    expect(statuslineProxyUrl({ ANTHROPIC_BASE_URL: 'http://localhost:9100/v1' })).toBe(
      'http://localhost:9100',
    );
    expect(statuslineProxyUrl({ ANTHROPIC_BASE_URL: 'http://[::1]:9100' })).toBe(
      'http://[::1]:9100',
    );
    for (const remote of ['https://api.anthropic.com', 'http://gateway.example:8080', 'nonsense']) {
      expect(statuslineProxyUrl({ ANTHROPIC_BASE_URL: remote })).toBe('http://127.0.0.1:8787');
    }
    expect(statuslineProxyUrl({})).toBe('http://127.0.0.1:8787');
  });
});
