/** The small slash commands about the session itself: /context, /compress, /todo, /clear, /quit. */
import { densityPassSwitches, errorMessage, formatTodoList } from '@dense/core';
import { plainNoopReason } from '../format/compressionReason.js';
import { formatCount } from '../format/formatTokens.js';
import { errorLine, lines, type SlashCommand } from './types.js';

export const contextCommand: SlashCommand = {
  name: 'context',
  usage: ['/context'],
  summary: 'What fills the context, and what density and compression removed',
  async run(_args, { cli }) {
    return {
      kind: 'context',
      report: await cli.session.contextReport(),
      switches: densityPassSwitches(cli.session.settings),
      ...(cli.prompt ? { prompt: cli.prompt } : {}),
      workspaceRoot: cli.workspaceRoot,
    };
  },
};

export const compressCommand: SlashCommand = {
  name: 'compress',
  usage: ['/compress'],
  summary: 'Run the active compression strategy now',
  async run(_args, { cli }) {
    try {
      const event = await cli.session.compressNow();
      const change = `${formatCount(event.tokensBefore)} → ${formatCount(event.tokensAfter)} tokens`;
      if (event.result.kind === 'noop') {
        return lines({
          text: `Nothing to compress yet: ${plainNoopReason(event.result.reason)} (${event.strategy}; ${change}).`,
          tone: 'info',
        });
      }
      return lines({ text: `Compressed with ${event.strategy}: ${change}.`, tone: 'success' });
    } catch (error) {
      return errorLine(`Compression failed: ${errorMessage(error)}`);
    }
  },
};

export const todoCommand: SlashCommand = {
  name: 'todo',
  usage: ['/todo'],
  summary: "Show the agent's todo list",
  run(_args, { cli }) {
    const text = formatTodoList(cli.session.todoStore.get());
    return Promise.resolve(lines(...text.split('\n')));
  },
};

export const clearCommand: SlashCommand = {
  name: 'clear',
  usage: ['/clear'],
  summary: 'Forget the conversation (settings and todos stay)',
  run(_args, { cli }) {
    cli.session.clear();
    cli.recorder.recordEvent('clear');
    return Promise.resolve(
      lines({ text: 'Conversation cleared; the model starts fresh.', tone: 'success' }),
    );
  },
};

export const quitCommand: SlashCommand = {
  name: 'quit',
  usage: ['/quit'],
  summary: 'Leave dense',
  run() {
    return Promise.resolve({ kind: 'quit' });
  },
};
