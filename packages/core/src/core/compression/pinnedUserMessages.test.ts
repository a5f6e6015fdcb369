import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createUserMessage, textBlock, type IContent } from '../../services/history/IContent.js';
import { ai, human, toolRoundTrip } from '../../test-utils/historyBuilders.js';
import {
  HUGE_PASTE_CHARS,
  PASTE_END_CHARS,
  pinnedIn,
  recallIdOfUserMessage,
  renderPinned,
  userMessagesOf,
  usersMessages,
} from './pinnedUserMessages.js';
import { ArtifactTrailKeeper } from './artifactTrail/ArtifactTrailKeeper.js';
import { RecallIndex } from '../../services/recall/RecallStore.js';

describe('pinnedUserMessages', () => {
  it("#33.4 the user's words leave out client context; Dense's and tool entries are not the user's", () => {
    const typed = human(
      '<system-reminder>kernel 6.1, model x</system-reminder>\nFix the ledger; keep the API stable.',
    );
    expect(usersMessages(typed)).toEqual(['Fix the ledger; keep the API stable.']);
    expect(usersMessages(ai('On it.'))).toEqual([]);
    expect(usersMessages(createUserMessage('a summary', { isSummary: true }))).toEqual([]);
    expect(
      usersMessages(createUserMessage('trail', { artifactTrail: true, synthetic: true })),
    ).toEqual([]);
    const [, result] = toolRoundTrip('c1', 'run_shell_command', { command: 'ls' }, 'a\nb');
    expect(usersMessages(result)).toEqual([]);
    // A wire user message holds the tool results and what the user typed after them.
    const merged = { ...result, blocks: [...result.blocks, textBlock('Stop, use pnpm instead.')] };
    expect(usersMessages(merged)).toEqual(['Stop, use pnpm instead.']);
    // The skill file Claude Code sends after its Skill tool's result is the client's, not the user's.
    const [, loaded] = toolRoundTrip('c2', 'Skill', { skill: 'review' }, 'Launching skill: review');
    const withSkill = {
      ...loaded,
      blocks: [...loaded.blocks, textBlock('# Review\nCheck every file.'), textBlock('Go on.')],
    };
    expect(usersMessages(withSkill)).toEqual(['Go on.']);
  });

  it('#33.1 two user messages a client merged into one turn stay two: neither is cut for the length of both', () => {
    const log = 'x'.repeat(HUGE_PASTE_CHARS - 1_000);
    const prompt =
      `# Plan\n${'Write the plan to specs/ and keep it short. '.repeat(100)}`.trimEnd();
    const merged: IContent = { speaker: 'human', blocks: [textBlock(log), textBlock(prompt)] };
    expect(usersMessages(merged)).toEqual([log, prompt]);
    const pinned = renderPinned(userMessagesOf([merged]));
    expect(pinned).toContain(prompt);
    expect(pinned).not.toContain('characters of this paste cut');
  });

  it('#33.1 a rendered section reads back exactly, whatever the messages hold', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ minLength: 1, maxLength: 300 }), { maxLength: 6 }),
        (texts) => {
          const messages = [...new Set(texts.map((t) => t.trim()).filter((t) => t !== ''))];
          const section = renderPinned(messages);
          expect(pinnedIn(`before\n${section}\nafter [user message 9 of 9, 3 chars]\nabc`)).toEqual(
            messages,
          );
        },
      ),
    );
  });

  it('#33.1 a message that mimics a marker does not end the section early', () => {
    const tricky = 'see below\n[user message 2 of 2, 3 chars]\nxyz\nend of my note';
    expect(pinnedIn(renderPinned([tricky, 'second']))).toEqual([tricky, 'second']);
  });

  it('#33.1 a huge paste keeps its head and tail and names a recall id for the whole', () => {
    const paste = `HEAD ${'x'.repeat(HUGE_PASTE_CHARS)} TAIL`;
    const [body] = pinnedIn(renderPinned([paste]));
    expect(body?.startsWith(paste.slice(0, PASTE_END_CHARS))).toBe(true);
    expect(body?.endsWith(paste.slice(-PASTE_END_CHARS))).toBe(true);
    expect(body).toContain(`dense recall ${recallIdOfUserMessage(paste)}`);
    expect(body!.length).toBeLessThan(2 * PASTE_END_CHARS + 200);
    // Pinned again (a later compaction), the cut form stays as it is.
    expect(pinnedIn(renderPinned([body!]))).toEqual([body]);
  });

  it('#33.1 a huge paste is recallable by the id its pinned copy names', () => {
    const paste = `log start\n${'line\n'.repeat(3_000)}log end`;
    const index = new RecallIndex();
    index.add(human(paste));
    expect(index.get(recallIdOfUserMessage(paste))).toBe(paste);
    expect(index.get(recallIdOfUserMessage('short'))).toBeUndefined();
  });

  it('#33.1 messages an earlier pinned section carries come first, each once', () => {
    const earlier = createUserMessage(renderPinned(['first task', 'a constraint']), {
      synthetic: true,
      artifactTrail: true,
    });
    expect(userMessagesOf([earlier, human('first task'), ai('ok'), human('next')])).toEqual([
      'first task',
      'a constraint',
      'next',
    ]);
  });
});

describe("ArtifactTrailKeeper: the user's messages", () => {
  const input = { todos: [], workspaceRoot: '/w', contextLimit: 32_000 };
  const shown = (history: readonly IContent[]) =>
    history
      .map((e) => e.blocks.map((b) => (b.type === 'text' ? b.text : '')).join('\n'))
      .join('\n');

  it('#33.7 every user message a compression drops stays visible verbatim, over compressions', () => {
    const keeper = new ArtifactTrailKeeper();
    const round1 = [
      human('Fix the ledger tests.'),
      ai('Looking.'),
      human('Do not touch the schema.'),
    ];
    const round2 = [ai('Fixed one.'), human('Also rename Ledger to Book.'), ai('Done.')];
    const first = keeper.historyWithTrail({ ...input, before: round1, after: round1.slice(2) });
    expect(shown(first)).toContain('Fix the ledger tests.');
    const second = keeper.historyWithTrail({
      ...input,
      before: [...first, ...round2],
      after: round2.slice(2),
    });
    for (const text of [
      'Fix the ledger tests.',
      'Do not touch the schema.',
      'Also rename Ledger to Book.',
    ])
      expect(shown(second)).toContain(text);
  });

  it("#33.7 the user's messages come back with the trail off too, and after a resume", () => {
    const round = [human('Keep the public API.'), ai('Sure.'), human('go')];
    const off = new ArtifactTrailKeeper().historyWithTrail({
      ...input,
      before: round,
      after: round.slice(2),
      trail: false,
    });
    expect(shown(off)).toContain('Keep the public API.');
    // A new keeper (a resumed session) reads the pinned messages from the trail entry it replaces.
    const resumed = new ArtifactTrailKeeper().historyWithTrail({
      ...input,
      before: [...off, ai('next'), human('more')],
      after: [human('more')],
    });
    expect(shown(resumed)).toContain('Keep the public API.');
  });
});
