import { Type } from 'typebox';
import type { FastifyInstance } from 'fastify';
import type { RelayStore } from '../store/store.js';

const Health = Type.Object(
  {
    ok: Type.Boolean({ description: 'true when this node can serve: its database answers' }),
    database: Type.Union([Type.Literal('reachable'), Type.Literal('unreachable')]),
  },
  { description: 'What a load balancer needs to know about this node' },
);

/** GET /healthz: for a load balancer's health check; free of authentication and of the rate limit (not under /api/). */
export function healthRoutes(app: FastifyInstance, store: RelayStore): void {
  app.get(
    '/healthz',
    {
      // Outside /api/v1 and so outside the API document, like `/` and /openapi.json.
      schema: {
        hide: true,
        summary: 'Whether this node and its database are up',
        description: '200 when the database answers, 503 when it does not (take the node out of rotation).',
        response: { 200: Health, 503: Health },
      },
    },
    async (_req, reply) => {
      const reachable = await store.healthy();
      reply.header('Cache-Control', 'no-store');
      return reply
        .code(reachable ? 200 : 503)
        .send({ ok: reachable, database: reachable ? 'reachable' : 'unreachable' });
    },
  );
}
