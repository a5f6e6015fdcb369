/**
 * Carries the tools' approval questions to whoever can answer them (the interactive UI): one
 * pending request at a time, answered with yes / no / always. A request whose turn is cancelled is
 * answered `no`, so a cancelled turn never waits on a prompt nobody will see.
 */
import { TypedEmitter, type ApprovalDecision, type ApprovalRequest } from '@dense/core';

export interface PendingApproval {
  readonly request: ApprovalRequest;
  readonly answer: (decision: ApprovalDecision) => void;
}

export interface ApprovalBrokerEvents {
  /** A request is waiting (or, with `undefined`, none is any more). */
  changed: PendingApproval | undefined;
}

export class ApprovalBroker {
  readonly events = new TypedEmitter<ApprovalBrokerEvents>();
  private current: PendingApproval | undefined;
  private readonly queue: PendingApproval[] = [];

  get pending(): PendingApproval | undefined {
    return this.current;
  }

  /** The ToolContext's `approve` callback. */
  readonly approve = (request: ApprovalRequest): Promise<ApprovalDecision> =>
    new Promise<ApprovalDecision>((resolve) => {
      let settled = false;
      const onAbort = (): void => entry.answer('no');
      const entry: PendingApproval = {
        request,
        answer: (decision) => {
          if (settled) return;
          settled = true;
          request.signal?.removeEventListener('abort', onAbort);
          this.finish(entry);
          resolve(decision);
        },
      };
      if (request.signal?.aborted) {
        resolve('no');
        return;
      }
      request.signal?.addEventListener('abort', onAbort, { once: true });
      this.queue.push(entry);
      this.advance();
    });

  private finish(entry: PendingApproval): void {
    const index = this.queue.indexOf(entry);
    if (index !== -1) this.queue.splice(index, 1);
    if (this.current === entry) {
      this.current = undefined;
      this.advance();
    }
  }

  private advance(): void {
    if (this.current !== undefined) return;
    this.current = this.queue.shift();
    this.events.emit('changed', this.current);
  }
}
