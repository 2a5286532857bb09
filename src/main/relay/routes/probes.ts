/**
 * GET /livez and GET /readyz, for an orchestrator's liveness and readiness probes
 * (docs/operations.md, Health): outside /api/, so free of authentication and of the rate limit,
 * and in the OpenAPI document under `health`. /healthz (health.ts) stays for load balancers
 * that already ask it.
 */
import { Type } from 'typebox';
import type { FastifyInstance } from 'fastify';
import { ErrorBody } from '../../../shared/api/common.js';
import { HttpError } from '../http/errors.js';
import type { RelayStore } from '../store/store.js';

const Alive = Type.Object({ status: Type.Literal('alive') }, { description: 'The process answers' });
const Ready = Type.Object({ status: Type.Literal('ready') }, { description: 'This node can serve' });

/** Every route's Host guard answers these, probes included: a probe must send a Host this relay answers for. */
const HOST_REFUSALS = {
  400: { ...ErrorBody, description: 'The Host is not a plain host[:port] (`bad-host`)' },
  421: {
    ...ErrorBody,
    description: 'The Host names a host this relay does not answer for (`host-not-allowed`, see `--allow-host`)',
  },
};

const NOT_READY = {
  unreachable: () => new HttpError(503, 'the database is unreachable', 'database-unavailable'),
  'not-migrated': () =>
    new HttpError(
      503,
      'the database does not hold the schema this relay runs; start the newest relay once to migrate it',
      'database-not-migrated',
    ),
} as const;

export function probeRoutes(app: FastifyInstance, store: RelayStore): void {
  app.get(
    '/livez',
    {
      schema: {
        tags: ['health'],
        security: [],
        summary: 'Whether the relay process answers',
        description:
          'Always 200 while the process runs its event loop; asks nothing of the database. An orchestrator restarts a process that stops answering it.',
        response: { 200: Alive, ...HOST_REFUSALS },
      },
    },
    async (_req, reply) => {
      reply.header('Cache-Control', 'no-store');
      return { status: 'alive' as const };
    },
  );
  app.get(
    '/readyz',
    {
      schema: {
        tags: ['health'],
        security: [],
        summary: 'Whether this node can serve requests',
        description:
          '200 when the database answers and holds the schema this relay runs; 503 otherwise (`database-unavailable`, ' +
          '`database-not-migrated`) and while the relay shuts down (`shutting-down`). Take the node out of rotation on 503.',
        response: {
          200: Ready,
          ...HOST_REFUSALS,
          503: {
            ...ErrorBody,
            description: 'Not ready: the database is unreachable or not migrated, or the relay is shutting down',
          },
        },
      },
    },
    async (_req, reply) => {
      reply.header('Cache-Control', 'no-store');
      const readiness = await store.readiness();
      if (readiness !== 'ready') throw NOT_READY[readiness]();
      return { status: 'ready' as const };
    },
  );
}
