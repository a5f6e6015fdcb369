/**
 * Text a coding-agent client puts into a user turn that the user did not type: Claude Code's
 * `<system-reminder>` blocks, IDE selections and opened files, slash-command echoes, hook output
 * and background-task notifications; Codex's `<environment_context>` and `<user_instructions>`. Recognised by the element
 * names the clients wrap it in, so what is left is what the user said. Pure.
 */

/** Element names whose whole content is client context. */
export const CLIENT_CONTEXT_ELEMENTS: readonly string[] = [
  'system-reminder',
  'ide_opened_file',
  'ide_selection',
  'command-name',
  'command-message',
  'command-args',
  'local-command-stdout',
  'local-command-stderr',
  'local-command-caveat',
  'user-prompt-submit-hook',
  'task-notification',
  'environment_context',
  'user_instructions',
  'total_tokens',
];

const ELEMENT = new RegExp(
  `<(${CLIENT_CONTEXT_ELEMENTS.map((name) => name.replace(/[-]/g, '\\-')).join('|')})>[\\s\\S]*?</\\1>`,
  'g',
);

/**
 * `text` without the client-context elements it holds, trimmed. An element inside a line leaves a
 * line break, not a join: the user's words on either side stay as the user wrote them.
 */
export function withoutClientContext(text: string): string {
  return text.includes('<') ? text.replace(ELEMENT, '\n').trim() : text.trim();
}

/** Whether `text` is client context only (nothing the user typed is left). */
export function isClientContext(text: string): boolean {
  return withoutClientContext(text) === '';
}
