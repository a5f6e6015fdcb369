/** How the metering line prices a forwarded request: its sizes and the client's own threshold. */
import type * as http from 'node:http';
import { agentClient } from '../budget/agentClient.js';
import { clientCompactionThreshold } from '../budget/workingBudget.js';
import type { DensifyResult } from '../densify/densifyRequest.js';
import { bodyLength } from '../wire/bodyLength.js';
import { bodyImageLoad } from '../images/requestImages.js';
import type { RequestPricing } from './proxyStats.js';
import type { WireApi } from '../wire/wireHistory.js';

/** What the metering line needs to price a forwarded request. */
export function requestPricing(input: {
  api: WireApi;
  request: http.IncomingMessage;
  body: Buffer;
  result: DensifyResult;
}): RequestPricing {
  const { api, request, result } = input;
  const longContext = String(request.headers['anthropic-beta'] ?? '').includes('context-1m');
  const client = agentClient({ api, userAgent: request.headers['user-agent'] });
  return {
    provider: result.provider,
    originalBytes: input.body.length,
    sentBytes: bodyLength(result.chunks ?? result.body),
    originalImages: bodyImageLoad(input.body),
    sentImages: bodyImageLoad(result.chunks ?? result.body),
    // Known for Claude Code, Codex and Qwen Code (docs/clients.md).
    ...(client !== undefined && result.model !== undefined
      ? { clientThreshold: clientCompactionThreshold({ model: result.model, longContext, client }) }
      : {}),
  };
}
