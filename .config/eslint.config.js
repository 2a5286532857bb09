// Flat config; run as `npm run lint` (eslint -c .config/eslint.config.js .).
import prettier from 'eslint-config-prettier';
import formatjs from 'eslint-plugin-formatjs';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'node_modules/**',
      'out/**',
      'dist/**',
      '.tmp/**',
      'test-results/**',
      'playwright-report/**',
      'src/renderer/public/**',
    ],
  },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx,mts}'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'electron',
              message:
                'Only the Electron shell (src/main/index.ts, window.ts, ipc/doorway, preload) may import electron; the architecture test enforces where.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/renderer/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks, formatjs },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      // Every user-visible sentence comes from the catalogue (src/renderer/i18n).
      'formatjs/no-literal-string-in-jsx': 'error',
      'formatjs/enforce-description': 'error',
      'formatjs/enforce-default-message': 'error',
      'formatjs/no-invalid-icu': 'error',
    },
  },
  {
    // The thin Electron shell is the one place electron may be imported.
    files: [
      'src/main/index.ts',
      'src/main/window.ts',
      'src/main/ipc/**',
      'src/main/safe-storage-codec.ts',
      'src/main/sqlite/sqlite-binding.ts',
      'src/preload/**',
      'e2e/**',
      'electron.vite.config.ts',
    ],
    rules: { 'no-restricted-imports': 'off' },
  },
  // Layout is Prettier's (npm run format); no lint rule may argue with it.
  prettier,
);
