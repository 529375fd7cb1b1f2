// Error codes: the numbers of partita.proto.ErrorCode (proto/errors.proto, the
// single source), read from the code generated from that file at build time.

import { partita } from './gen/proto.js';

const PREFIX = 'ERROR_CODE_';
const byName = new Map<string, number>();
const byNumber = new Map<number, string>();
for (const [name, n] of Object.entries(partita.proto.ErrorCode)) {
  byName.set(name.slice(PREFIX.length), n as number);
  byNumber.set(n as number, name.slice(PREFIX.length));
}

/** The number of the code named `name` (without ERROR_CODE_), or 0 when unknown. */
export function errorCodeOf(name: string): number {
  return byName.get(name) ?? 0;
}

/** The name (without ERROR_CODE_) of code `code`, or '' when unknown. */
export function errorNameOf(code: number): string {
  return byNumber.get(code) ?? '';
}

/** Every code by name without the prefix: ErrorCode.CONSTRAINT_VIOLATION === 2. */
export const ErrorCode: Readonly<Record<string, number>> = Object.freeze(Object.fromEntries(byName));
