export * from './cacheRules.js';
export * from './cachePrefix.js';
export * from './priceCall.js';
