/**
 * Reads Codex `apply_patch` envelopes (`*** Begin Patch` … `*** End Patch`) into one operation per
 * file: an added file with its content, an update as old/new text (context lines in both, hunks
 * joined by newlines), or a deletion. Pure; a malformed envelope yields the files it could read.
 */

export type FilePatch =
  | { readonly kind: 'add'; readonly path: string; readonly content: string }
  | {
      readonly kind: 'update';
      readonly path: string;
      readonly moveTo?: string;
      readonly oldText: string;
      readonly newText: string;
    }
  | { readonly kind: 'delete'; readonly path: string };

const FILE_HEADER = /^\*\*\* (Add|Update|Delete) File: (.+)$/;

/** The `*** Begin Patch` … `*** End Patch` text inside `text` (e.g. a heredoc), if any. */
export function extractPatch(text: string): string | undefined {
  const start = text.indexOf('*** Begin Patch');
  if (start === -1) return undefined;
  const end = text.indexOf('*** End Patch', start);
  return end === -1 ? text.slice(start) : text.slice(start, end + '*** End Patch'.length);
}

interface Draft {
  kind: 'add' | 'update' | 'delete';
  path: string;
  moveTo?: string;
  added: string[];
  hunks: { old: string[]; new: string[] }[];
}

function finish(draft: Draft): FilePatch {
  if (draft.kind === 'add')
    return { kind: 'add', path: draft.path, content: draft.added.join('\n') };
  if (draft.kind === 'delete') return { kind: 'delete', path: draft.path };
  const hunks = draft.hunks.filter((hunk) => hunk.old.length > 0 || hunk.new.length > 0);
  return {
    kind: 'update',
    path: draft.path,
    ...(draft.moveTo === undefined ? {} : { moveTo: draft.moveTo }),
    oldText: hunks.map((hunk) => hunk.old.join('\n')).join('\n'),
    newText: hunks.map((hunk) => hunk.new.join('\n')).join('\n'),
  };
}

function addHunkLine(draft: Draft, line: string): void {
  if (draft.kind === 'add') {
    if (line.startsWith('+')) draft.added.push(line.slice(1));
    return;
  }
  if (line.startsWith('@@') || draft.hunks.length === 0) draft.hunks.push({ old: [], new: [] });
  if (line.startsWith('@@') || line === '*** End of File') return;
  const hunk = draft.hunks[draft.hunks.length - 1];
  if (hunk === undefined) return;
  const body = line.slice(1);
  if (line.startsWith('-')) hunk.old.push(body);
  else if (line.startsWith('+')) hunk.new.push(body);
  else {
    hunk.old.push(body);
    hunk.new.push(body);
  }
}

/** The per-file operations of a patch, in the order the patch lists them. */
export function parseApplyPatch(patch: string): FilePatch[] {
  const files: FilePatch[] = [];
  let draft: Draft | undefined;
  for (const line of patch.split(/\r?\n/)) {
    const header = FILE_HEADER.exec(line);
    if (header?.[1] !== undefined && header[2] !== undefined) {
      if (draft) files.push(finish(draft));
      const kind = header[1] === 'Add' ? 'add' : header[1] === 'Update' ? 'update' : 'delete';
      draft = { kind, path: header[2].trim(), added: [], hunks: [] };
    } else if (draft && line.startsWith('*** Move to: ')) {
      draft.moveTo = line.slice('*** Move to: '.length).trim();
    } else if (draft && !line.startsWith('*** ')) addHunkLine(draft, line);
  }
  if (draft) files.push(finish(draft));
  return files;
}
