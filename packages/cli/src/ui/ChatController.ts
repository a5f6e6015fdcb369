/**
 * The interactive session's state and actions, kept out of React: submit a line (slash command or
 * prompt with `@` files), run the turn while folding its events into the conversation, cancel it,
 * answer approvals, and keep the footer's numbers current. Components read the state through
 * `subscribe` / `getState` (useSyncExternalStore) and call the actions.
 */
import { readFile } from 'node:fs/promises';
import type { ApprovalDecision, ApprovalRequest, ChatEvent, RetryNotice } from '@dense/core';
import { expandAtReferences } from '../at/expandAtReferences.js';
import { isSlashCommand, runSlashCommand, SLASH_COMMANDS } from '../commands/slashCommands.js';
import type { CommandOutput, OutputLine, SlashCommand } from '../commands/types.js';
import { approvalPreview, type PreviewLine } from '../format/approvalPreview.js';
import { describeTurnError } from '../format/describeTurnError.js';
import type { CliSession } from '../session/CliSession.js';
import {
  addItem,
  applyChatEvent,
  EMPTY_CONVERSATION,
  finishTurn,
  type Conversation,
  type NewItem,
} from './conversation.js';
import { readFooterStats, type FooterStats } from './footerStats.js';
import { historyItems } from './historyItems.js';
import { welcomeLines } from './welcomeLines.js';

const readTextOrUndefined = (file: string): Promise<string | undefined> =>
  readFile(file, 'utf8').catch(() => undefined);

/** How much of a resumed session is shown again. */
const RECAP_ITEMS = 12;

export interface UiState {
  readonly conversation: Conversation;
  readonly busy: boolean;
  /** Ctrl-C was pressed during this turn (a second press exits). */
  readonly cancelling: boolean;
  readonly approval: ApprovalRequest | undefined;
  /** What the pending approval would do: diff, new file's first lines, shell command and cwd. */
  readonly preview: readonly PreviewLine[];
  readonly footer: FooterStats;
  readonly profileNames: readonly string[];
  readonly quit: boolean;
  /** Lines typed while something else runs, in the order they will run. */
  readonly queued: readonly string[];
  /** The provider is waiting to retry: what failed, and when the next attempt starts (ms epoch). */
  readonly retry: { readonly notice: RetryNotice; readonly until: number } | undefined;
}

export class ChatController {
  private state: UiState;
  private readonly listeners = new Set<() => void>();
  private readonly offs: (() => void)[] = [];
  private turn: AbortController | undefined;
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly cli: CliSession,
    private readonly commands: readonly SlashCommand[] = SLASH_COMMANDS,
    private readonly now: () => number = Date.now,
  ) {
    this.state = {
      conversation: EMPTY_CONVERSATION,
      busy: false,
      cancelling: false,
      approval: undefined,
      preview: [],
      footer: readFooterStats(cli),
      profileNames: [],
      quit: false,
      queued: [],
      retry: undefined,
    };
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly getState = (): UiState => this.state;

  /** Shows the welcome lines and starts listening to the session. */
  start(): void {
    const { session } = this.cli;
    const refresh = (): void => this.refreshFooter();
    this.offs.push(
      session.history.events.on('tokensUpdated', refresh),
      session.compression.events.on('densityApplied', refresh),
      session.compression.events.on('compressed', refresh),
      session.settings.events.on('changed', refresh),
      this.cli.approvals.events.on('changed', (pending) => this.showApproval(pending?.request)),
      this.cli.onNotice((message) => this.addLines([{ text: message, tone: 'warning' }])),
    );
    this.addLines(welcomeLines(this.cli));
    if (this.cli.resumed) {
      const recap = historyItems(this.cli.session.history.getRawHistory(), RECAP_ITEMS);
      for (const item of recap) this.addItem(item);
      if (recap.length > 0) this.addLines([{ text: '— resumed here —', tone: 'dim' }]);
    }
    void this.refreshProfileNames();
  }

  dispose(): void {
    this.turn?.abort();
    for (const off of this.offs.splice(0)) off();
  }

  /**
   * Runs one line of input: a slash command or a prompt. Lines submitted while another runs
   * (typed ahead) wait their turn; resolves when this line has run.
   */
  submit(input: string): Promise<void> {
    const text = input.trim();
    if (text === '') return this.queue;
    this.update({ queued: [...this.state.queued, text] });
    this.queue = this.queue.then(() => this.run(text));
    return this.queue;
  }

  private async run(text: string): Promise<void> {
    this.update({ queued: this.state.queued.slice(1) });
    if (this.state.quit) return;
    this.update({ busy: true, cancelling: false });
    try {
      if (isSlashCommand(text)) await this.runCommand(text);
      else await this.runTurn(text);
    } catch (error) {
      this.addLines([{ text: describeTurnError(error).message, tone: 'error' }]);
    } finally {
      this.update({ busy: false, cancelling: false });
      this.refreshFooter();
    }
  }

  /** Cancels the running turn. False when there was nothing to cancel. */
  cancel(): boolean {
    if (this.turn === undefined || this.turn.signal.aborted) return false;
    this.turn.abort();
    this.update({ cancelling: true });
    return true;
  }

  private showApproval(request: ApprovalRequest | undefined): void {
    this.update({ approval: request, preview: [] });
    if (request === undefined) return;
    const deps = { workspaceRoot: this.cli.workspaceRoot, readText: readTextOrUndefined };
    void approvalPreview(request, deps).then((preview) => {
      if (this.state.approval === request) this.update({ preview });
    });
  }

  answerApproval(decision: ApprovalDecision): void {
    this.cli.approvals.pending?.answer(decision);
  }

  private async runCommand(text: string): Promise<void> {
    this.addItem({ kind: 'user', text, included: [] });
    const output = await runSlashCommand(text, { cli: this.cli, commands: this.commands });
    this.show(output);
    if (text.startsWith('/profile')) await this.refreshProfileNames();
  }

  private show(output: CommandOutput): void {
    switch (output.kind) {
      case 'lines':
        this.addLines(output.lines);
        return;
      case 'context':
        this.addItem({ ...output, kind: 'context' });
        return;
      case 'quit':
        this.update({ quit: true });
        return;
    }
  }

  private async runTurn(text: string): Promise<void> {
    const expansion = await expandAtReferences(text, { workspaceRoot: this.cli.workspaceRoot });
    this.addItem({ kind: 'user', text, included: expansion.included });
    if (expansion.notices.length > 0) {
      this.addLines(expansion.notices.map((notice) => ({ text: notice, tone: 'warning' })));
    }
    const controller = new AbortController();
    this.turn = controller;
    try {
      const turn = this.cli.session.send(expansion.message, { signal: controller.signal });
      for (;;) {
        const next = await turn.next();
        if (next.done) break;
        this.applyEvent(next.value);
      }
      this.setConversation(finishTurn(this.state.conversation));
    } catch (error) {
      this.setConversation(finishTurn(this.state.conversation, true));
      const report = describeTurnError(error);
      this.addLines([
        { text: report.message, tone: report.kind === 'cancelled' ? 'warning' : 'error' },
      ]);
    } finally {
      this.turn = undefined;
      this.update({ retry: undefined });
    }
  }

  private applyEvent(event: ChatEvent): void {
    if (event.type === 'retry') {
      this.update({ retry: { notice: event.retry, until: this.now() + event.retry.delayMs } });
      return;
    }
    if (this.state.retry !== undefined) this.update({ retry: undefined });
    this.setConversation(applyChatEvent(this.state.conversation, event));
  }

  private async refreshProfileNames(): Promise<void> {
    try {
      this.update({ profileNames: await this.cli.profiles.list() });
    } catch {
      // completion simply offers no names
    }
  }

  private refreshFooter(): void {
    this.update({ footer: readFooterStats(this.cli) });
  }

  private addLines(lines: readonly OutputLine[]): void {
    this.addItem({ kind: 'lines', lines });
  }

  private addItem(item: NewItem): void {
    this.setConversation(addItem(this.state.conversation, item));
  }

  private setConversation(conversation: Conversation): void {
    this.update({ conversation });
  }

  private update(patch: Partial<UiState>): void {
    this.state = { ...this.state, ...patch };
    for (const listener of [...this.listeners]) listener();
  }
}
