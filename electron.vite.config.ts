import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';

export default defineConfig({
  main: {
    build: {
      // Native and heavy dependencies load from node_modules at run time (better-sqlite3 above all).
      externalizeDeps: { include: ['better-sqlite3'] },
      rollupOptions: {
        input: {
          index: resolve('src/main/index.ts'),
          // Separate entries: the vault runs in a worker thread, the relay in a child process.
          'vault-worker': resolve('src/main/vault/worker/vault-worker.ts'),
          // backups and history imports do their database work in a worker thread too
          'store-worker': resolve('src/main/client/store/store-worker.ts'),
          'relay-cli': resolve('src/main/relay/cli.ts'),
        },
        // Chunks beside the entries: the vault client finds its worker relative to its own file.
        output: { format: 'es', entryFileNames: '[name].js', chunkFileNames: '[name]-[hash].js' },
      },
    },
  },
  preload: {
    build: {
      rollupOptions: {
        input: { index: resolve('src/preload/index.ts') },
        // A sandboxed preload cannot be an ES module.
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve('src/renderer'),
    plugins: [react()],
    build: {
      rollupOptions: { input: { index: resolve('src/renderer/index.html') } },
      // The desktop app reads its pages from disk, not over a network, and the sections that are
      // not the first screen are split off already (app.tsx loads them lazily): the ~850 kB
      // entry (React, react-intl, the chats) costs nothing a smaller chunk would save, so Vite's
      // 500 kB advice, meant for pages fetched over the web, is not printed at every start.
      chunkSizeWarningLimit: 1200,
    },
  },
});
