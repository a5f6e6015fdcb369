/** The loopback mock LLM server (OpenAI, Anthropic and Gemini streaming wire formats). */
export * from './mockScript.js';
export * from './wireFormats.js';
export * from './startMockServer.js';
export * from './providerTestKit.js';
