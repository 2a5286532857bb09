/** The plan of the `live-scale` and `cluster-live` bench sections: the full one and the quick one. */

export interface Plan {
  receivers: number;
  /** receiver processes; the sender has its own */
  workers: number;
  /** wallets written to the store at a time while seeding */
  concurrency: number;
  /** `wait` of every held pull, seconds */
  wait: number;
  rate: number;
  /**
   * seconds of sends at the rate before the measured ones: the relay's send, wake and ack paths
   * are compiled by V8 under them (the receivers coming online exercise only the pulls), as they
   * would be on a relay in service
   */
  warmup: number;
  /** seconds of measured sends */
  seconds: number;
  /** the sender's keep-alive connections per node */
  connections: number;
}

export const FULL: Plan = {
  receivers: 10_000,
  workers: 4,
  concurrency: 32,
  wait: 25,
  rate: 1000,
  warmup: 3,
  seconds: 20,
  connections: 64,
};
export const QUICK: Plan = {
  receivers: 200,
  workers: 2,
  concurrency: 8,
  wait: 5,
  rate: 100,
  warmup: 1,
  seconds: 3,
  connections: 8,
};
/** how long after the last send an envelope may still arrive and count as delivered */
export const GRACE_MS = 2000;
