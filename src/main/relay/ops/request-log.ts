/**
 * One log line per answered request: method, route pattern, status, duration and the request
 * id, through the logger's `req`/`res` serializers (logger.ts), so no URL, header or body can be
 * in it. A 5xx is logged as an error with the error that caused it, stack included. Health
 * probes are logged only at debug while they succeed, and their 503s as warnings without a
 * stack: a load balancer asks every few seconds, and the outage behind a 503 is logged once
 * where it is noticed (store-watch.ts).
 */
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';

const PROBES = new Set(['/livez', '/readyz', '/healthz']);
const cause = new WeakMap<FastifyRequest, FastifyError>();

export function registerRequestLog(app: FastifyInstance): void {
  app.addHook('onError', async (req, _reply, err) => {
    cause.set(req, err);
  });
  app.addHook('onResponse', async (req, reply) => {
    const status = reply.statusCode;
    const fields = { req, res: reply, durationMs: Math.round(reply.elapsedTime * 100) / 100 };
    const probe = PROBES.has(req.routeOptions.url ?? '');
    if (status >= 500 && probe) {
      req.log.warn(fields, 'probe failed');
    } else if (status >= 500) {
      const err = cause.get(req);
      req.log.error(err ? { ...fields, err } : fields, 'request failed');
    } else if (probe) {
      req.log.debug(fields, 'request');
    } else {
      req.log.info(fields, 'request');
    }
  });
}
