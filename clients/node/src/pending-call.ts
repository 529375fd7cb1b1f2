// PendingCall: one call between call() and its answer: the encoded frame,
// how to settle its promise, its clock, its partition and how many times
// it was sent again. Settled exactly once.
// Thread model: JavaScript's single thread.

import type { Response } from './response.js';

export class PendingCall {
  /** performance.now() when the call was handed to its connection (its timeout runs from there). */
  startedAt = 0;
  /** performance.now() when it was queued to wait for a free slot. */
  queuedAt = 0;
  /** Times the call was sent again after a NOT_LEADER answer (resend.ts). */
  resends = 0;
  /** Times it was sent again after a host behind the client's topology answered NOT_LEADER (resend.ts). */
  behindWaits = 0;
  /** False for the client's own calls (topology and route reads): never sent again. */
  resendable = true;
  private settled = false;

  constructor(
    readonly handle: number,
    readonly procedure: string,
    /** The encoded ClientMessage, without its length prefix. */
    readonly frame: Uint8Array,
    readonly timeoutMs: number,
    readonly throwOnFailure: boolean,
    /** The partition the call was routed to (-1: not routed), to route it again when it is sent again. */
    readonly partition: number,
    private readonly onResolve: (r: Response) => void,
    private readonly onReject: (e: Error) => void,
  ) {}

  resolve(r: Response): void {
    if (this.settled) return;
    this.settled = true;
    this.onResolve(r);
  }

  reject(e: Error): void {
    if (this.settled) return;
    this.settled = true;
    this.onReject(e);
  }
}
