// Resend policy: which answered calls the client sends again on its own.
// The one place that decides it (docs/cluster.md, "Routing").
//
// NOT_LEADER says the call was not run (the host asked does not lead its
// partition): the client reads the newest topology and sends it again, at
// most MAX_NOT_LEADER_RESENDS times; after that the caller sees NOT_LEADER.
// A routed call answered NOT_LEADER by a host whose topology is older than
// the client's (that host has not followed the map yet; hosts follow a new
// map some milliseconds apart, and the client may hear of it first from
// another host) goes to its leader again after behindHostWaitMs, at most
// MAX_BEHIND_WAITS times, not counted against those resends.
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
  return isNotLeader(errorCode) && resends < MAX_NOT_LEADER_RESENDS;
}

function isNotLeader(errorCode: number): boolean {
  return errorCode === NOT_LEADER && NOT_LEADER !== 0;
}

/** Waits for a host behind the client's topology, at most, per call (about 2.8 s in all). */
export const MAX_BEHIND_WAITS = 60;

/**
 * For a call routed to `partition` (-1: not routed) answered with `errorCode` by a host knowing topology
 * `answerVersion` while the client routes by `clientVersion`, after `waits` such waits: the milliseconds to wait
 * before sending it to its leader again (1, doubling up to 50), or undefined when it is not one to wait for.
 */
export function behindHostWaitMs(errorCode: number, partition: number, answerVersion: number, clientVersion: number,
  waits: number): number | undefined {
  if (!isNotLeader(errorCode) || partition < 0 || answerVersion >= clientVersion || waits >= MAX_BEHIND_WAITS) {
    return undefined;
  }
  return Math.min(50, 2 ** Math.min(waits, 20));
}
