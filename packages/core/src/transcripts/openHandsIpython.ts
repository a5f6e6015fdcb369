/**
 * OpenHands IPython cells that are one agentskills file call (`open_file`, `edit_file_by_replace`,
 * `create_file`, `insert_content_at_line`, `append_file`) → the canonical file tool, so legacy
 * OpenHands sessions expose their reads and writes. Other cells stay `execute_ipython_cell {code}`.
 */
import type { CanonicalCall } from './toolAliases.js';

const SKILL_CALL =
  /^(open_file|edit_file_by_replace|create_file|insert_content_at_line|append_file)\(\s*(?:(?:file_name|path)\s*=\s*)?(['"])((?:\\.|(?!\2)[^\n])*)\2/;

function unescapePython(text: string): string {
  return text.replace(/\\(n|t|r|\\|'|")/g, (_, ch: string) =>
    ch === 'n' ? '\n' : ch === 't' ? '\t' : ch === 'r' ? '\r' : ch,
  );
}

/** The literal value of a keyword string argument (`name="""…"""`, `name='…'`), if literal. */
export function pythonStringArg(code: string, name: string): string | undefined {
  const triple = new RegExp(`\\b${name}\\s*=\\s*r?("""|''')([\\s\\S]*?)\\1`).exec(code);
  if (triple?.[2] !== undefined) return triple[2];
  const single = new RegExp(`\\b${name}\\s*=\\s*r?(["'])((?:\\\\.|(?!\\1)[^\\n])*)\\1`).exec(code);
  return single?.[2] === undefined ? undefined : unescapePython(single[2]);
}

/** The canonical call for a cell, or `execute_ipython_cell {code}` when it is not one skill call. */
export function mapIpythonCell(code: string): CanonicalCall {
  const trimmed = code.trim();
  const match = SKILL_CALL.exec(trimmed);
  if (match?.[1] === undefined || match[3] === undefined || !trimmed.endsWith(')')) {
    return { name: 'execute_ipython_cell', parameters: { code } };
  }
  const file_path = unescapePython(match[3]);
  switch (match[1]) {
    case 'open_file':
      return { name: 'read_file', parameters: { file_path } };
    case 'create_file':
      return { name: 'write_file', parameters: { file_path, content: '' } };
    case 'edit_file_by_replace': {
      const old_string = pythonStringArg(trimmed, 'to_replace');
      const new_string = pythonStringArg(trimmed, 'new_content');
      return old_string !== undefined && new_string !== undefined
        ? { name: 'replace', parameters: { file_path, old_string, new_string } }
        : { name: 'replace', parameters: { file_path, code } };
    }
    default:
      return { name: 'insert_at_line', parameters: { file_path, code } };
  }
}
