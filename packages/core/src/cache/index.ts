export * from './cacheRules.js';
export * from './priceCall.js';
