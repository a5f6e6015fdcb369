/** Test helpers shared by core's and the CLI's tests. Never imported by production code. */
export * from './historyBuilders.js';
export * from './ScriptedProvider.js';
export * from './compressionContext.js';
export * from './mockServer/index.js';
export * from './promptCache.js';
export * from './promptBlocks.js';
export * from './replaySessionReport.js';
export * from './realServices.js';
export * from '../gateway/test-utils/redisServer.js';
export * from '../gateway/test-utils/haproxy.js';
