/**
 * The proxy's repeated-lines reply: a new result that repeats long runs of lines of results still
 * visible in the request goes out as the CLI's reply (`repeatedLinesReply`), each run one marker
 * naming the call and the lines, the rest verbatim. The reply stands only while expanding its
 * markers against the request as sent gives back the result's own text.
 */
import { repeatedLinesReply } from '../../core/compression/density/entry/repeatedLines.js';
import {
  expandRepeatedLines,
  type RepeatedLinesRef,
} from '../../core/compression/density/entry/repeatedLinesText.js';
import type { ToolCallBlock, ToolResponseBlock } from '../../services/history/IContent.js';
import { historyBefore, visibleResult, type RequestIndex } from './requestIndex.js';
import type { ResultSite } from '../wire/wireHistory.js';

/**
 * The messages holding what the markers of `cliText` (the reply to the result at `site`) name in
 * this request, when
 * expanding them against the request as sent gives back `text`, the result's own text; else
 * undefined. A marker may name an earlier result visible as sent, never a parameter.
 */
export function namedLines(
  index: RequestIndex,
  input: { readonly site: ResultSite; readonly cliText: string; readonly text: string },
): readonly number[] | undefined {
  const { site } = input;
  const messages = new Set<number>();
  const textOf = (ref: RepeatedLinesRef): string | undefined => {
    // The call the model sees holds the client's own parameters, which the canonical call renames
    // or builds (NotebookEdit's `new_source` read as `new_string`, a patch's added lines without
    // their `+`): a marker naming one could name text the model cannot see.
    if (ref.parameter !== undefined) return undefined;
    const visible = visibleResult(index, ref.callId, site);
    if (visible === undefined) return undefined;
    messages.add(visible.site.messageIndex);
    return visible.text;
  };
  if (expandRepeatedLines(input.cliText, textOf) !== input.text || messages.size === 0)
    return undefined;
  return [...messages];
}

/**
 * The CLI's repeated-lines reply to the new result at `site` (answering `call`), as text, when
 * what it names is visible in this request; undefined when it has none or names anything else.
 */
export function repeatedLinesEntryReply(
  index: RequestIndex,
  input: {
    readonly site: ResultSite;
    readonly call: ToolCallBlock;
    readonly response: ToolResponseBlock;
  },
): { readonly cliText: string } | undefined {
  const { site, call, response } = input;
  const text = response.result;
  if (response.error !== undefined || response.original !== undefined || typeof text !== 'string')
    return undefined;
  const reply = repeatedLinesReply(historyBefore(index, site), call, response, {
    workspaceRoot: '/',
  });
  if (reply === undefined || reply.error !== undefined || typeof reply.result !== 'string')
    return undefined;
  const cliText = reply.result;
  return namedLines(index, { site, cliText, text }) === undefined ? undefined : { cliText };
}
