/**
 * `/sessions` (recent recordings: id, when, size, first prompt) and `/resume <id>` inside the REPL.
 * `/resume` replaces this conversation with the recorded one and switches to
 * its provider, model and base URL; the entries are copied into this session's own recording, so
 * that file alone can be resumed later.
 */
import { readFile, stat } from 'node:fs/promises';
import { errorMessage } from '@dense/core';
import { formatCount } from '../format/formatTokens.js';
import type { CliSession } from '../session/CliSession.js';
import { parseSessionRecording, loadSessionRecording } from '../session/loadSessionRecording.js';
import { findSessionFile, listRecordings, type RecordedSession } from '../session/sessionFiles.js';
import { errorLine, lines, type OutputLine, type SlashCommand } from './types.js';

const SHOWN = 10;
const PROMPT_WIDTH = 60;

function firstPrompt(text: string, file: string): string {
  try {
    const recording = parseSessionRecording(text, file);
    const human = recording.contents.find((c) => c.speaker === 'human');
    const block = human?.blocks.find((b) => b.type === 'text');
    const words = block?.type === 'text' ? (block.text.split('\n')[0]?.trim() ?? '') : '';
    if (words === '') return '(no prompt)';
    return words.length > PROMPT_WIDTH ? `${words.slice(0, PROMPT_WIDTH - 1)}…` : words;
  } catch {
    return '(unreadable)';
  }
}

async function describe(session: RecordedSession, current: string): Promise<OutputLine> {
  const [text, info] = await Promise.all([readFile(session.file, 'utf8'), stat(session.file)]);
  const when = new Date(session.mtimeMs).toISOString().slice(0, 16).replace('T', ' ');
  const size = `${formatCount(Math.max(1, Math.round(info.size / 1024)))} KB`;
  const mark = session.id === current ? '●' : ' ';
  return {
    text: `${mark} ${session.id}  ${when}  ${size.padStart(7)}  ${firstPrompt(text, session.file)}`,
  };
}

export const sessionsCommand: SlashCommand = {
  name: 'sessions',
  usage: ['/sessions'],
  summary: 'Recent recorded sessions: id, last write (UTC), size, first prompt',
  async run(_args, { cli }) {
    const all = await listRecordings(cli.paths.sessionsDir);
    if (all.length === 0) return lines({ text: 'No recorded sessions yet.', tone: 'dim' });
    const recent = [...all].sort((a, b) => b.mtimeMs - a.mtimeMs).slice(0, SHOWN);
    const rows = await Promise.all(recent.map((s) => describe(s, cli.session.sessionId)));
    return lines(
      { text: `Recent sessions (${recent.length} of ${all.length}):`, tone: 'heading' },
      ...rows,
      { text: 'Continue one with /resume <id> (a unique prefix is enough).', tone: 'dim' },
    );
  },
};

function switchProvider(
  cli: CliSession,
  header: { provider: string; model: string; baseUrl?: string },
): string {
  const choice = {
    provider: header.provider,
    model: header.model,
    ...(header.baseUrl === undefined ? {} : { baseUrl: header.baseUrl }),
  };
  const current = cli.providers.config;
  const same =
    cli.providers.current.name === choice.provider &&
    current.model === choice.model &&
    current.baseUrl === choice.baseUrl;
  if (same) return `${choice.provider}/${choice.model}`;
  try {
    cli.providers.commit(choice, cli.providers.prepare(choice));
    return `${choice.provider}/${choice.model}`;
  } catch (error) {
    return `${cli.providers.config.provider}/${cli.providers.config.model} (the recorded ${choice.provider}/${choice.model} is unavailable: ${errorMessage(error)})`;
  }
}

export const resumeCommand: SlashCommand = {
  name: 'resume',
  usage: ['/resume <id>', '/resume latest'],
  summary: 'Replace this conversation with a recorded one and continue it',
  async run(args, { cli }) {
    const ref = args.trim();
    if (ref === '') return errorLine('Usage: /resume <id> (see /sessions)');
    const found = await findSessionFile(cli.paths.sessionsDir, ref);
    if (found.id === cli.session.sessionId) return errorLine('That is this session.');
    const recording = await loadSessionRecording(found.file);
    cli.session.clear();
    cli.recorder.recordEvent('clear');
    cli.session.history.addAll(recording.contents);
    cli.session.compression.markDirty();
    for (const content of recording.contents) cli.recorder.record(content);
    cli.recorder.recordEvent('resumed', { from: found.id, entries: recording.contents.length });
    const using = switchProvider(cli, recording.header);
    return lines(
      {
        text: `Resumed ${found.id}: ${recording.contents.length} entries, using ${using}.`,
        tone: 'success',
      },
      ...(recording.skipped.length > 0
        ? [
            {
              text: `${recording.skipped.length} unreadable line(s) skipped.`,
              tone: 'warning' as const,
            },
          ]
        : []),
    );
  },
};
