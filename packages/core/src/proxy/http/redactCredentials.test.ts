import { describe, expect, it } from 'vitest';
import { REDACTED, redactHeaders, redactUrl } from './redactCredentials.js';

describe('redactCredentials', () => {
  it('#22.10 every credential-shaped header is redacted, the rest kept', () => {
    const headers = redactHeaders({
      'api-key': 'a',
      'proxy-authorization': 'Basic b',
      'x-goog-api-key': 'c',
      'x-amz-security-token': 'd',
      cookie: 'e',
      'x-whatever': 'Bearer f',
      'x-other': 'sk-ant-0123456789',
      'anthropic-version': '2023-06-01',
      'x-claude-code-session-id': 'sess',
      accept: ['a', 'b'],
    });
    expect(headers).toEqual({
      'api-key': REDACTED,
      'proxy-authorization': REDACTED,
      'x-goog-api-key': REDACTED,
      'x-amz-security-token': REDACTED,
      cookie: REDACTED,
      'x-whatever': REDACTED,
      'x-other': REDACTED,
      'anthropic-version': '2023-06-01',
      'x-claude-code-session-id': 'sess',
      accept: 'a, b',
    });
  });

  it('#22.10 credential query values are redacted, the path and other parameters kept', () => {
    expect(redactUrl('/v1/x?key=K&beta=true&X-Amz-Signature=S&access_token=T&q=%20a')).toBe(
      '/v1/x?key=[redacted]&beta=true&X-Amz-Signature=[redacted]&access_token=[redacted]&q=%20a',
    );
    expect(redactUrl('/v1/x?api%2Dkey=K&flag')).toBe('/v1/x?api%2Dkey=[redacted]&flag');
    expect(redactUrl('/v1/messages')).toBe('/v1/messages');
  });
});
