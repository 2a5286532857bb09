/**
 * Blob transfer: upload and download MiB/s of one 20 MiB blob through the built
 * relay, beside the same client code against a bare server doing the same disk work (the
 * ceiling), measured in the same run. Medians of several rounds; the client is RelayApi, the
 * streaming path attachments use.
 */
import { randomBytes } from 'node:crypto';
import { createReadStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { RelayApi } from '../../client/network/relay-api.js';
import { signIn } from '../../test-support/sign-in.js';
import { startBuilt, startTs, type Child } from '../../test-support/child-process.js';
import { figure, type Figure } from '../report.js';

const SECTION = 'blobs';
const MIB = 1024 * 1024;
const BLOB_MIB = 20;
const SINK_SERVER = fileURLToPath(new URL('./blob-sink-server.ts', import.meta.url));

export interface BlobBenchOptions {
  quick?: boolean;
  log?: (line: string) => void;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** MiB/s of `rounds` uploads and downloads of `file` through `api`. */
async function measure(api: RelayApi, file: string, rounds: number): Promise<{ up: number; down: number }> {
  const up: number[] = [];
  const down: number[] = [];
  for (let i = 0; i < rounds; i++) {
    let t = performance.now();
    const blob = await api.uploadBlob(() => createReadStream(file), BLOB_MIB * MIB);
    up.push(BLOB_MIB / ((performance.now() - t) / 1000));
    t = performance.now();
    await api.downloadBlob(blob.id, new Writable({ write: (_c, _e, cb) => cb() }), blob.size);
    down.push(BLOB_MIB / ((performance.now() - t) / 1000));
  }
  return { up: median(up), down: median(down) };
}

export async function benchBlobs(opts: BlobBenchOptions = {}): Promise<Figure[]> {
  const log = opts.log ?? (() => undefined);
  const rounds = opts.quick ? 2 : 5;
  const dir = mkdtempSync(join(tmpdir(), 'blob-bench-'));
  const children: Child[] = [];
  try {
    const file = join(dir, 'blob.bin');
    writeFileSync(file, randomBytes(BLOB_MIB * MIB));
    const relay = await startBuilt(
      'relay',
      [
        '--host',
        '127.0.0.1',
        '--port',
        '0',
        '--data',
        join(dir, 'relay'),
        '--rate-limit',
        '0',
        '--max-blob-storage-mib',
        '4096',
      ],
      /^relay listening on (\S+)/,
    );
    children.push(relay);
    const sink = await startTs(SINK_SERVER, [], /^blob sink listening on (\S+)/);
    children.push(sink);
    const user = await signIn(relay.ready, 'blob bench');
    const viaRelay = new RelayApi({ baseUrl: relay.ready, credential: user.apiKey, max429Retries: 0 });
    const raw = new RelayApi({ baseUrl: sink.ready, credential: 'unused', max429Retries: 0 });
    try {
      // one warm-up each: the relay compiles its route validators on first use
      await measure(viaRelay, file, 1);
      await measure(raw, file, 1);
      const r = await measure(viaRelay, file, rounds);
      const c = await measure(raw, file, rounds);
      log(
        `blobs: relay up ${r.up.toFixed(0)} / down ${r.down.toFixed(0)} MiB/s; bare server up ${c.up.toFixed(0)} / down ${c.down.toFixed(0)} MiB/s`,
      );
      const detail = `${BLOB_MIB} MiB blob, median of ${rounds}; upload answered after fsync + rename`;
      return [
        figure(SECTION, 'upload_relay', `upload ${BLOB_MIB} MiB through the relay`, r.up, 'MiB/s', { detail }),
        figure(SECTION, 'upload_raw', `upload ${BLOB_MIB} MiB to a bare loopback server (ceiling)`, c.up, 'MiB/s', {
          detail,
        }),
        figure(SECTION, 'upload_vs_raw', 'relay upload / ceiling', r.up / c.up, '×'),
        figure(SECTION, 'download_relay', `download ${BLOB_MIB} MiB through the relay`, r.down, 'MiB/s', { detail }),
        figure(
          SECTION,
          'download_raw',
          `download ${BLOB_MIB} MiB from a bare loopback server (ceiling)`,
          c.down,
          'MiB/s',
          { detail },
        ),
        figure(SECTION, 'download_vs_raw', 'relay download / ceiling', r.down / c.down, '×'),
      ];
    } finally {
      viaRelay.close();
      raw.close();
    }
  } finally {
    for (const c of children) await c.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
