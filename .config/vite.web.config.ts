/** The renderer built for web mode (`npm run build:web`): the same pages, served by src/main/web. */
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('../src/renderer', import.meta.url));

export default defineConfig({
  root,
  base: './',
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL('../out/web', import.meta.url)),
    emptyOutDir: true,
    target: 'chrome120',
    sourcemap: false,
  },
  logLevel: 'warn',
});
