/** Transcript import: recorded agent sessions of many formats → our canonical IContent[]. */
export * from './types.js';
export * from './TranscriptError.js';
export * from './importTranscript.js';
export { detectTranscriptFormat, classifyJsonValue } from './detectTranscriptFormat.js';
export * from './sessionFormat.js';
export {
  DELETE_FILE_TOOL,
  mapStrReplaceEditor,
  mapToolCall,
  type AliasHints,
  type CanonicalCall,
  type SourceAgent,
} from './toolAliases.js';
export { TOOL_ALIASES, type ToolAlias } from './toolAliasTable.js';
export * from '../shell/classifyShellCommand.js';
export * from './applyPatch.js';
export { computeSessionStats } from './sessionStats.js';
export {
  mapAtExpansion,
  mapInlinedFileParts,
  REFERENCED_FILES_HEADER,
} from './geminiInclusions.js';
export type { ImportSource } from './SessionBuilder.js';
export { textLines, readFileLines, type LineSource } from './lineSource.js';
export { importDenseSession } from './importers/denseSession.js';
export { importClaudeCode, importClaudeCodeRecords } from './importers/claudeCode.js';
export { importCodexRollout } from './importers/codexRollout.js';
export { importGeminiContent } from './importers/geminiContent.js';
export { importGeminiMarkdown } from './importers/geminiMarkdown.js';
export { importGeminiRecording } from './importers/geminiRecording.js';
export { importMiniSweAgent } from './importers/miniSweAgent.js';
export { importOpenHandsEvents, importOpenHandsOutput } from './importers/openHands.js';
export { importSweAgent } from './importers/sweAgent.js';
export { toolLinkProblems } from './toolLinkProblems.js';
export * from './checkImport.js';
