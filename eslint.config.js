import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

const ENGINE_INTERNALS = {
  group: ['**/workers/engine/**', '**/workers/engine.worker*', '**/workers/libreoffice/**', '**/workers/watchdog*'],
  message:
    'The UI uses the engines through workers/bridge.ts or workers/pdf-view.ts; ' +
    'shared types and helpers are in shared/.',
};
const ANY_ENGINE = {
  group: ['**/workers/**'],
  message: 'No engine here: what the engines and the UI share is in shared/.',
};
const NO_API = { group: ['**/mock-api/**'], message: 'The /api is reached through src/api/client.ts.' };
const NO_UI = { group: ['**/src/**'], message: 'shared/ depends on nothing outside shared/.' };

export default tseslint.config(
  { ignores: ['dist', 'node_modules', 'test-results', 'bench/results'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'react-hooks/set-state-in-effect': 'off',
      // Per-tool forms are lazy components made once in src/tool-ui/forms/registry.ts and only looked up
      // during render, which this rule cannot tell apart from creating them there.
      'react-hooks/static-components': 'off',
      // Prettier (npm run lint checks it) wraps code at 120; this catches what it leaves long: comments
      // and strings. A URL or a regular expression cannot be broken without changing it.
      'max-len': ['error', { code: 120, ignoreUrls: true, ignoreRegExpLiterals: true }],
    },
  },
  {
    // Office XML and test names in tests are written as the documents hold them: a line break inside
    // a string would change the document (or the test's name).
    files: ['tests/**/*.{ts,tsx}'],
    rules: {
      'max-len': [
        'error',
        { code: 120, ignoreUrls: true, ignoreRegExpLiterals: true, ignoreStrings: true, ignoreTemplateLiterals: true },
      ],
    },
  },
  // Boundaries (docs/architecture.md): the UI reaches the engines only through the worker bridge
  // (workers/bridge.ts) and the in-page pdf.js view (workers/pdf-view.ts); what both sides need lives
  // in shared/, which depends on nothing else; the catalogue describes tools without any engine.
  {
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/catalogue/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [ENGINE_INTERNALS] }] },
  },
  {
    files: ['src/catalogue/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [ANY_ENGINE, NO_API] }] },
  },
  {
    files: ['shared/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [ANY_ENGINE, NO_API, NO_UI] }] },
  },
);
