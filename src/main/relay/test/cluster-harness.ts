import { mkdtempSync, rmSync } from 'node:fs';
import { request, createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { createRelay } from '../app.js';
import { clientErrorHandler } from '../http/guards/defences.js';
import type { StakeChain } from '../chain/stake-chain.js';
import { openClusterNode, type ClusterNodeDeps } from '../cluster-node.js';
import type { RelayConfig } from '../config.js';
import { sharedCluster } from '../store/test/backends.js';

/** One relay process of a test cluster (in this process, on its own port). */
export interface ClusterNode {
  url: string;
  app: FastifyInstance;
  node: ClusterNodeDeps;
  close(): Promise<void>;
}

export async function startNode(
  databaseUrl: string,
  nodeId: string,
  config: RelayConfig,
  now: () => number,
  deps: { stakeChain?: StakeChain; dataDir?: string } = {},
): Promise<ClusterNode> {
  const node = await openClusterNode(databaseUrl, { nodeId, maxConnections: 4 });
  const app = await createRelay({
    store: node.store,
    config,
    now,
    stakeChain: deps.stakeChain,
    dataDir: deps.dataDir,
    doorbell: node.doorbell,
    revocations: node.revocations,
    rateLimitStore: node.rateLimitStore,
  });
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    url,
    app,
    node,
    async close() {
      await app.close();
      await node.close();
    },
  };
}

/**
 * A small round-robin reverse proxy on 127.0.0.1: each request (not each connection) goes to
 * the next node, so a test's consecutive calls land on different nodes.
 */
export async function roundRobin(targets: readonly string[]): Promise<{ url: string; close(): Promise<void> }> {
  let next = 0;
  const server: Server = createServer((req, res) => {
    const target = new URL(targets[next++ % targets.length]);
    const upstream = request(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        // as a load balancer in front of a cluster does: the nodes (--trust-proxy) read the
        // public authority from it, since the port they listen on is not the one clients dial
        headers: { ...req.headers, 'x-forwarded-host': req.headers.host },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    // A client that gives up on a held pull gives up on the node too.
    res.on('close', () => upstream.destroy());
    req.pipe(upstream);
  });
  server.keepAliveTimeout = 5_000;
  // What the proxy cannot parse never reaches a node: answer it as a node would.
  server.on('clientError', clientErrorHandler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Two nodes on a fresh database of the file's throw-away cluster, behind a round-robin proxy. */
export async function startClusterRelay(
  config: RelayConfig,
  clock: { now: number | null },
  deps: { stakeChain?: StakeChain } = {},
) {
  const databaseUrl = await sharedCluster().createDatabase();
  const now = () => clock.now ?? Date.now();
  // The disk guard watches this folder, as it watches a single relay's data folder.
  const dir = mkdtempSync(join(tmpdir(), 'relay-test-'));
  const behindProxy = { ...config, trustProxy: true };
  const nodes = [
    await startNode(databaseUrl, 'node-a', behindProxy, now, { ...deps, dataDir: dir }),
    await startNode(databaseUrl, 'node-b', behindProxy, now, { ...deps, dataDir: dir }),
  ];
  const proxy = await roundRobin(nodes.map((n) => n.url));
  // What tests read of "the relay's app": held pulls are the cluster's, on either node.
  const app = Object.create(nodes[0].app, {
    heldPulls: { get: () => nodes[0].app.heldPulls + nodes[1].app.heldPulls },
  }) as FastifyInstance;
  return {
    url: proxy.url,
    nodeUrl: nodes[0].url,
    app,
    store: nodes[0].node.store,
    dir,
    clock,
    nodes,
    databaseUrl,
    async close() {
      // The nodes first: they answer their held pulls through the proxy as they shut down.
      for (const n of nodes) await n.close();
      await proxy.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
