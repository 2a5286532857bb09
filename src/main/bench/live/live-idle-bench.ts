/**
 * Online delivery on an idle relay: one held pull, one send at a time. Each round
 * times, with one clock in this process, the send's write → the held pull's answer, beside the
 * send's own round trip and a bare node:http echo of a send-sized body, taken in turn in the
 * same loop so that the machine's drift weighs on all three alike. The send is durable: its 200
 * (and so the ring) follows its COMMIT on disk.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { startBuilt, startTs, type Child } from '../../test-support/child-process.js';
import { sealedLikeEnvelope } from '../../test-support/sealed-like.js';
import { callJson, signIn } from '../../test-support/sign-in.js';
import { LeanHttpClient } from '../http/lean-http-client.js';
import { figure, percentile, type Figure } from '../report.js';

const SECTION = 'live';
const ECHO_SERVER = fileURLToPath(new URL('../http/echo-server.ts', import.meta.url));
/** how long a new pull is given to be registered on an idle relay before the send (it takes well under 1 ms) */
const SETTLE_MS = 3;

export interface LiveIdleOptions {
  rounds: number;
  log?: (line: string) => void;
}

export async function benchLiveIdle(opts: LiveIdleOptions): Promise<Figure[]> {
  const log = opts.log ?? (() => undefined);
  const dataDir = mkdtempSync(join(tmpdir(), 'live-idle-bench-'));
  const children: Child[] = [];
  const clients: LeanHttpClient[] = [];
  try {
    const relay = await startBuilt(
      'relay',
      ['--host', '127.0.0.1', '--port', '0', '--data', dataDir, '--rate-limit', '0'],
      /^relay listening on (\S+)/,
    );
    children.push(relay);
    const echo = await startTs(ECHO_SERVER, [], /^echo listening on (\S+)/);
    children.push(echo);
    const base = relay.ready;
    const sender = await signIn(base, 'bench sender');
    const receiver = await signIn(base, 'bench receiver');
    await callJson('PUT', `${base}/api/v1/contacts/${sender.address}`, receiver.apiKey);
    log(`one held pull on an idle relay (${base}), ${opts.rounds} rounds, beside an echo (${echo.ready})`);

    const open = async (url: string) => {
      const c = new LeanHttpClient(new URL(url), 64 * 1024);
      await c.open();
      clients.push(c);
      return c;
    };
    const puller = await open(base);
    const sending = await open(base);
    const echoing = await open(echo.ready);
    const pullReq = puller.request('GET', '/api/v1/envelopes?wait=25', { authorization: `Bearer ${receiver.apiKey}` });
    const to = { address: receiver.address, deviceKey: receiver.deviceKey };
    const sendBody = () => JSON.stringify(sealedLikeEnvelope(to));

    const wake: number[] = [];
    const send: number[] = [];
    const echoed: number[] = [];
    for (let i = 0; i < opts.rounds; i++) {
      // the echo of a body of the same kind and size, on its own connection
      const echoReq = echoing.request('POST', '/', {}, sendBody());
      const e0 = performance.now();
      await echoing.send(echoReq);
      echoed.push(performance.now() - e0);
      if (echoing.status() !== 200) throw new Error(`the echo answered ${echoing.status()}`);

      const held = puller.send(pullReq).then(() => performance.now());
      await sleep(SETTLE_MS);
      const sendReq = sending.request(
        'POST',
        '/api/v1/envelopes',
        { authorization: `Bearer ${sender.apiKey}` },
        sendBody(),
      );
      const t0 = performance.now();
      const answered = sending.send(sendReq).then(() => performance.now());
      const [pulledAt, sentAt] = await Promise.all([held, answered]);
      if (sending.status() !== 200)
        throw new Error(`a send answered ${sending.status()}: ${sending.body().toString()}`);
      if (puller.status() !== 200) throw new Error(`the held pull answered ${puller.status()}`);
      const { envelopes } = JSON.parse(puller.body().toString('utf8')) as { envelopes: { id: string }[] };
      if (envelopes.length !== 1)
        throw new Error(`the held pull answered ${envelopes.length} envelopes, not the one sent`);
      wake.push(pulledAt - t0);
      send.push(sentAt - t0);
      await puller.send(
        puller.request(
          'POST',
          '/api/v1/envelopes/ack',
          { authorization: `Bearer ${receiver.apiKey}` },
          JSON.stringify({ ids: [envelopes[0].id] }),
        ),
      );
      if (puller.status() !== 200) throw new Error(`an ack answered ${puller.status()}`);
    }
    for (const xs of [wake, send, echoed]) xs.sort((x, y) => x - y);
    const detail = `${opts.rounds} rounds on an idle relay, each: an echo, then a held pull and a send; ${SETTLE_MS} ms between the pull and the send`;
    const figures = [
      figure(
        SECTION,
        'idle.wake.p50',
        'one held pull on an idle relay: send written → pull answered, p50',
        percentile(wake, 0.5),
        'ms',
        { target: { op: '<=', value: 1 }, detail },
      ),
      figure(
        SECTION,
        'idle.wake.p99',
        'one held pull on an idle relay: send written → pull answered, p99',
        percentile(wake, 0.99),
        'ms',
        { detail },
      ),
      figure(
        SECTION,
        'idle.send.p50',
        "the send's own round trip, same loop, p50 (baseline)",
        percentile(send, 0.5),
        'ms',
        { detail: `p99 ${percentile(send, 0.99).toFixed(2)} ms` },
      ),
      figure(
        SECTION,
        'idle.echo.p50',
        'bare node:http echo of a send-sized body, same loop, p50 (floor)',
        percentile(echoed, 0.5),
        'ms',
        { detail: `p99 ${percentile(echoed, 0.99).toFixed(2)} ms` },
      ),
    ];
    return figures;
  } finally {
    for (const c of clients) c.close();
    for (const c of children.reverse()) await c.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
