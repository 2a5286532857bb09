/**
 * Load generation with autocannon over keep-alive connections. Bodies rotate through a
 * pre-built pool so every request carries different bytes without costing the generator
 * CPU at run time.
 */
import autocannon from 'autocannon';

export interface LoadResult {
  ok: number;
  non2xx: number;
  errors: number;
  seconds: number;
  /** 2xx answers per second */
  rate: number;
  latencyP50: number;
  latencyP99: number;
  statusCodes: Record<string, number>;
}

export interface LoadOptions {
  url: string;
  bodies: string[];
  apiKey?: string;
  connections: number;
  /** seconds; the run also stops after `amount` requests when that is given */
  duration: number;
  amount?: number;
}

export async function postLoad(o: LoadOptions): Promise<LoadResult> {
  let i = 0;
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (o.apiKey) headers.authorization = `Bearer ${o.apiKey}`;
  const result = await autocannon({
    url: o.url,
    connections: o.connections,
    pipelining: 1,
    duration: o.duration,
    amount: o.amount,
    timeout: 30,
    requests: [{ method: 'POST', headers, setupRequest: (req) => ({ ...req, body: o.bodies[i++ % o.bodies.length] }) }],
  });
  const statusCodes: Record<string, number> = {};
  for (const [code, stat] of Object.entries(result.statusCodeStats ?? {})) statusCodes[code] = stat.count ?? 0;
  return {
    ok: result['2xx'],
    non2xx: result.non2xx,
    errors: result.errors,
    seconds: result.duration,
    rate: result['2xx'] / result.duration,
    latencyP50: result.latency.p50,
    latencyP99: result.latency.p99,
    statusCodes,
  };
}

/** Fails loudly when a load run was not clean: a rate measured over errors means nothing. */
export function assertClean(what: string, r: LoadResult): void {
  if (r.non2xx > 0 || r.errors > 0) {
    throw new Error(
      `${what}: ${r.non2xx} non-2xx answers (${JSON.stringify(r.statusCodes)}) and ${r.errors} connection errors out of ${r.ok + r.non2xx}`,
    );
  }
}

/** Several runs as one: summed answers over summed time; latency percentiles of the worst run. */
export function combine(runs: LoadResult[]): LoadResult {
  const sum = (f: (r: LoadResult) => number) => runs.reduce((t, r) => t + f(r), 0);
  const statusCodes: Record<string, number> = {};
  for (const r of runs)
    for (const [code, n] of Object.entries(r.statusCodes)) statusCodes[code] = (statusCodes[code] ?? 0) + n;
  const seconds = sum((r) => r.seconds);
  const ok = sum((r) => r.ok);
  return {
    ok,
    non2xx: sum((r) => r.non2xx),
    errors: sum((r) => r.errors),
    seconds,
    rate: ok / seconds,
    latencyP50: Math.max(...runs.map((r) => r.latencyP50)),
    latencyP99: Math.max(...runs.map((r) => r.latencyP99)),
    statusCodes,
  };
}
