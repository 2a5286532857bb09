/** The relay's answers checked against the shared typebox schemas, each schema compiled once (relay-api.ts). */
import { Compile } from 'typebox/compile';
import type { TSchema } from 'typebox';
import { DeviceKeys } from '../../../shared/api/directory.js';
import { BatchResults, GroupSendResults, PullResult } from '../../../shared/api/envelopes.js';
import { GroupDetail, GroupView } from '../../../shared/api/groups.js';

type Checked<S extends TSchema> = { schema: S; check: (v: unknown) => boolean };
const checkers = new Map<TSchema, (v: unknown) => boolean>();
export function checker<S extends TSchema>(schema: S): Checked<S> {
  let check = checkers.get(schema);
  if (!check) {
    const compiled = Compile(schema);
    check = (v: unknown) => compiled.Check(v);
    checkers.set(schema, check);
  }
  return { schema, check };
}

/** The answers of a send and a pull (the paths a person waits on), in the order a first send meets them. */
const HOT_ANSWERS: readonly TSchema[] = [
  DeviceKeys,
  GroupView,
  GroupSendResults,
  BatchResults,
  PullResult,
  GroupDetail,
];

/**
 * Compiles the checks of the hot answers ahead of need. A long-lived shell calls it once it has
 * settled, so that a first send does not compile them on its way (tens of milliseconds on a
 * busy machine); a one-shot CLI command never does.
 */
export function warmResponseChecks(): void {
  for (const schema of HOT_ANSWERS) checker(schema);
}
