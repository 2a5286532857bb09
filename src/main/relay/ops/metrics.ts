/**
 * The relay's Prometheus metrics (docs/operations.md, Metrics), in a registry of its own per
 * relay, never prom-client's global one: several relays in one process (tests, the bench) must
 * not count into each other. Loaded only when the operator asks for a metrics listener.
 *
 * There is no commit-latency histogram: the stores expose no hook around their commits. The
 * request duration of `POST /api/v1/envelopes` includes the commit, since a send is answered
 * only after it.
 */
import type { FastifyInstance } from 'fastify';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Delivery, DeliveryOutcome, RelayStats, RelayStore } from '../store/store.js';

/** Scrapes closer together than this share one look at the store. */
const STORE_LOOK_MS = 1000;

export class RelayMetrics {
  readonly registry = new Registry();
  readonly #requests: Counter<'method' | 'route' | 'status'>;
  readonly #duration: Histogram<'method' | 'route'>;
  readonly #routed: Counter<'routed' | 'send'>;

  constructor() {
    collectDefaultMetrics({ register: this.registry });
    this.#requests = new Counter({
      name: 'relay_http_requests_total',
      help: 'Requests answered, by method, route pattern and status',
      labelNames: ['method', 'route', 'status'],
      registers: [this.registry],
    });
    this.#duration = new Histogram({
      name: 'relay_http_request_duration_seconds',
      help: 'Time from a request to its answer, by method and route pattern (held pulls count their wait)',
      labelNames: ['method', 'route'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers: [this.registry],
    });
    this.#routed = new Counter({
      name: 'relay_envelopes_routed_total',
      help: 'Envelopes accepted, by the route the relay gave them (inbox, request, …) and by send (direct, group)',
      labelNames: ['routed', 'send'],
      registers: [this.registry],
    });
  }

  /** Counts the envelopes of a delivery the store accepted (store-watch.ts calls it). */
  readonly delivered = (delivery: Delivery, outcomes: readonly DeliveryOutcome[]): void => {
    const send = delivery.groupId === null ? 'direct' : 'group';
    for (const o of outcomes) this.#routed.inc({ routed: o.routed, send });
  };

  /** Counts every answered request, and reads what the app and its store hold at each scrape. */
  instrument(app: FastifyInstance, store: RelayStore): void {
    app.addHook('onResponse', async (req, reply) => {
      // the matched pattern keeps the label set small; unknown paths share one label
      const route = req.routeOptions.url ?? 'unmatched';
      this.#requests.inc({ method: req.method, route, status: String(reply.statusCode) });
      this.#duration.observe({ method: req.method, route }, reply.elapsedTime / 1000);
    });
    const registers = [this.registry];
    new Gauge({
      name: 'relay_held_pulls',
      help: 'Pulls held open right now (long polls) on this node',
      registers,
      collect() {
        this.set(app.heldPulls);
      },
    });
    const stats = lookOnce(() => store.stats());
    const storage = lookOnce(() => store.storageBytes());
    const fromStats = (name: string, help: string, read: (s: RelayStats) => number | null) =>
      new Gauge({
        name,
        help,
        registers,
        async collect() {
          // an unreachable store leaves the last value; relay_database_up says why
          const s = await stats().catch(() => null);
          const v = s === null ? null : read(s);
          if (v !== null) this.set(v);
        },
      });
    fromStats(
      'relay_queued_envelopes',
      'Envelopes waiting for their recipient (the queue depth)',
      (s) => s.queuedEnvelopes,
    );
    fromStats(
      'relay_oldest_queued_envelope_age_seconds',
      'Age of the oldest waiting envelope (0 when none waits)',
      (s) => (s.oldestQueuedAt === null ? 0 : Math.max(0, (Date.now() - s.oldestQueuedAt) / 1000)),
    );
    fromStats('relay_accounts', 'Accounts (wallets that signed in)', (s) => s.accounts);
    fromStats('relay_devices', 'Current devices', (s) => s.devices);
    fromStats('relay_api_keys', 'Active API keys', (s) => s.apiKeys);
    fromStats('relay_groups', 'Groups', (s) => s.groups);
    const fromStorage = (name: string, help: string, read: (s: { database: number; blobs: number }) => number) =>
      new Gauge({
        name,
        help,
        registers,
        async collect() {
          const s = await storage().catch(() => null);
          if (s !== null) this.set(read(s));
        },
      });
    fromStorage(
      'relay_database_bytes',
      'Bytes the database takes (SQLite: the file and its WAL; PostgreSQL: the database)',
      (s) => s.database,
    );
    fromStorage(
      'relay_blob_bytes',
      'Bytes of the blobs the database lists, expired ones not yet swept included',
      (s) => s.blobs,
    );
    new Gauge({
      name: 'relay_database_up',
      help: '1 when the database answers, 0 when it does not',
      registers,
      async collect() {
        this.set((await store.healthy()) ? 1 : 0);
      },
    });
  }

  /** The exposition text of everything registered. */
  async scrape(): Promise<{ contentType: string; text: string }> {
    return { contentType: this.registry.contentType, text: await this.registry.metrics() };
  }
}

/** `look`, but one call's answer serves every caller for STORE_LOOK_MS (one scrape asks several gauges). */
function lookOnce<T>(look: () => Promise<T>): () => Promise<T> {
  let last: { at: number; answer: Promise<T> } | null = null;
  return () => {
    const now = Date.now();
    if (!last || now - last.at >= STORE_LOOK_MS) last = { at: now, answer: look() };
    return last.answer;
  };
}
