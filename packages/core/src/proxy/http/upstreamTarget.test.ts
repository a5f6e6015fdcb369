import { describe, expect, it } from 'vitest';
import { upstreamTarget } from './forwardRequest.js';

describe('upstreamTarget (#34.5)', () => {
  const upstream = new URL('https://api.example.test/base');

  it('#34.5 a path inside the base path goes to it, query kept', () => {
    expect(upstreamTarget(upstream, '/v1/messages?beta=true')?.toString()).toBe(
      'https://api.example.test/base/v1/messages?beta=true',
    );
  });

  it('#34.5 decoded and encoded climbs out of the base path are refused alike', () => {
    expect(upstreamTarget(upstream, '/../admin')).toBeUndefined();
    expect(upstreamTarget(upstream, '/v1/..%2f..%2fadmin')).toBeUndefined();
    expect(upstreamTarget(upstream, '/v1/%2E%2E/%2e%2e/admin')).toBeUndefined();
    expect(upstreamTarget(upstream, '/v1/..%5Cadmin')).toBeUndefined();
  });
});
