/**
 * The ceiling for blob transfers: a bare node:http server that does a blob's disk work and no
 * more (stream the body to a temp file, fsync, rename; stream a file back), at the relay's blob
 * paths so the client's own RelayApi drives both. Run as its own process, like the relay.
 */
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { open, rename, stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';

const dir = mkdtempSync(join(tmpdir(), 'blob-sink-'));

const server = createServer((req, res) => {
  void (async () => {
    if (req.method === 'POST') {
      const id = randomBytes(16).toString('base64url');
      const temp = join(dir, `${id}.part`);
      await pipeline(req, createWriteStream(temp));
      const fh = await open(temp, 'r+');
      await fh.sync();
      await fh.close();
      await rename(temp, join(dir, id));
      const size = (await stat(join(dir, id))).size;
      const body = JSON.stringify({ id, size, expiresAt: new Date(Date.now() + 86_400_000).toISOString() });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
      return;
    }
    const path = join(dir, req.url!.split('/').pop()!);
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': (await stat(path)).size });
    await pipeline(createReadStream(path), res);
  })().catch(() => res.destroy());
});
server.listen(0, '127.0.0.1', () => {
  const a = server.address();
  process.stdout.write(`blob sink listening on http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}\n`);
});
process.on('SIGTERM', () =>
  server.close(() => {
    rmSync(dir, { recursive: true, force: true });
    process.exit(0);
  }),
);
