import { listenOn, openPg } from '../relay/store/postgres/pg-client.js';

/**
 * A bare NOTIFY on one connection heard on another LISTENing connection of the same database: the
 * least any PostgreSQL doorbell costs on this machine, with no relay in the way. The cluster bench
 * measures it beside the cross-node wake, so that a slow wake can be told from a slow machine.
 */
export interface NotifyHop {
  /** `count` hops one after another; each one's time in ms, from the NOTIFY sent to it being heard */
  measure(count: number): Promise<number[]>;
  close(): Promise<void>;
}

const CHANNEL = 'bench_hop';
const HEAR_WITHIN_MS = 5000;

export async function openNotifyHop(url: string): Promise<NotifyHop> {
  let heard: ((payload: string) => void) | null = null;
  const listener = listenOn(url, [CHANNEL], {
    notify: (_channel, payload) => heard?.(payload),
    up: () => undefined,
    down: () => undefined,
  });
  const sql = openPg(url, { max: 1, applicationName: 'bench notify hop' });
  try {
    await listener.ready(10_000);
    await sql`SELECT 1`;
  } catch (e) {
    await Promise.all([listener.close(), sql.end({ timeout: 1 })]);
    throw e;
  }
  let n = 0;
  return {
    async measure(count) {
      const times: number[] = [];
      for (let i = 0; i < count; i++) {
        const payload = String(++n);
        let timer: NodeJS.Timeout | undefined;
        const arrived = new Promise<number>((resolve, reject) => {
          heard = (p) => {
            if (p === payload) resolve(performance.now());
          };
          // a notification sent while the LISTEN connection was down is lost: fail, never hang
          timer = setTimeout(
            () => reject(new Error(`a NOTIFY was not heard within ${HEAR_WITHIN_MS} ms`)),
            HEAR_WITHIN_MS,
          );
        });
        const sentAt = performance.now();
        try {
          await sql`SELECT pg_notify(${CHANNEL}, ${payload})`;
          times.push((await arrived) - sentAt);
        } finally {
          clearTimeout(timer);
        }
      }
      heard = null;
      return times;
    },
    async close() {
      await listener.close();
      await sql.end({ timeout: 1 });
    },
  };
}
