// Resend policy: which answered calls the client sends again on its own.
// The one place that decides it (docs/cluster.md, "Routing").
//
// NOT_LEADER says the call was not run (the host asked does not lead its
// partition): the client reads the newest topology and sends it again, at
// most MAX_NOT_LEADER_RESENDS times; after that the caller sees NOT_LEADER.
// Nothing else is sent again: a call whose outcome is unknown (its
// connection dropped, it timed out, OUTCOME_UNKNOWN) may have run, and the
// server does not de-duplicate a call sent twice yet.
// Thread model: stateless.

import { errorCodeOf } from './error-codes.js';

/** Times a call answered NOT_LEADER is sent again at most. */
export const MAX_NOT_LEADER_RESENDS = 2;

const NOT_LEADER = errorCodeOf('NOT_LEADER');

/** True when a call answered with `errorCode`, already sent again `resends` times, is to be sent again. */
export function resendAfter(errorCode: number, resends: number): boolean {
  return errorCode === NOT_LEADER && NOT_LEADER !== 0 && resends < MAX_NOT_LEADER_RESENDS;
}
