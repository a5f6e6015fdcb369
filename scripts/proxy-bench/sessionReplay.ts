/** What replaying one session through the proxy and straight to the upstream measured, per side. */
import type { ProxyRequestRecord } from '@dense/core';
import type { BilledRequest } from './cacheBillingMock.js';
import type { ClientApi } from './clientRequests.js';
import type { ClientWindow } from './recordedClientWindow.js';
import type { SideGroundingReport } from './SideGrounding.js';
import type { SideIntentReport } from './SideIntent.js';
import type { SideReport } from './sideReport.js';

/** A side's client compactions. */
export interface SideCompactions {
  /** Compactions its client made (recorded boundaries it compacted at + synthetic ones). */
  readonly client: number;
  /** Of those, at a point where the recording has no summary. */
  readonly synthetic: number;
  /** Of those, answered by Dense (no model call). */
  readonly answeredByDense: number;
  /** Time the client waited for its compactions, ms (estimated where not measured). */
  readonly blockedMs: number;
}

export interface SessionReplay {
  readonly api: ClientApi;
  readonly model: string;
  /** The client's window and threshold, from the transcript or `--window` (recordedClientWindow.ts). */
  readonly client: ClientWindow;
  /** Model calls replayed (compaction requests not included). */
  readonly calls: number;
  readonly passThrough: SideReport;
  readonly proxy: SideReport;
  readonly compactions: { readonly passThrough: SideCompactions; readonly proxy: SideCompactions };
  /**
   * Per model call: the round trip through the proxy minus the direct one, ms (wall clock), each
   * without the mock's billing time.
   */
  readonly addedLatencyMs: readonly number[];
  /** The proxy's own record of each request it forwarded. */
  readonly records: readonly ProxyRequestRecord[];
  /** Every request each side's mock billed, in order (model calls and compaction requests). */
  readonly bills: {
    readonly passThrough: readonly BilledRequest[];
    readonly proxy: readonly BilledRequest[];
  };
  /** Per side: the specifics each reply used, judged against the request that side sent. */
  readonly grounding: {
    readonly passThrough: SideGroundingReport;
    readonly proxy: SideGroundingReport;
  };
  /** Per side: the user's earlier messages each call's request showed (SideIntent.ts). */
  readonly intent: {
    readonly passThrough: SideIntentReport;
    readonly proxy: SideIntentReport;
  };
}
