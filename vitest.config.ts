import { defineConfig } from 'vitest/config';

/**
 * Four suites (and the wide Office corpus, `npm run test:wide`, run on its own): unit (engines,
 * utilities, catalogue, api contract and the security suite in Node),
 * hostile (crafted inputs that must get a clear answer, tests/hostile/), corpus (every tool over
 * ../shared/corpus when present) and e2e (the built app in Debian's Chromium via playwright-core).
 * `npm test` runs unit, hostile and corpus, builds, then runs e2e.
 */
export default defineConfig({
  test: {
    // Vitest's run-mode default is one worker fewer than the cores: one on a two-core machine, so the Node suites ran
    // one file at a time. Their files share nothing but read-only inputs (measured: 121 files pass two at a time).
    // The e2e project stays at one file at a time (fileParallelism: false below).
    maxWorkers: '100%',
    projects: [
      // tests/security: the recipes of issue #16 (injected actions, unsafe links, passwords, invalid outputs).
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.{ts,tsx}', 'tests/security/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
        },
      },
      // Crafted hostile inputs (loops, bombs, huge sizes) through the /api contract in Node: issue #21.
      {
        extends: true,
        test: { name: 'hostile', include: ['tests/hostile/**/*.test.ts'], environment: 'node', testTimeout: 60_000 },
      },
      {
        extends: true,
        test: {
          name: 'corpus',
          include: ['tests/corpus/**/*.test.ts'],
          environment: 'node',
          testTimeout: 300_000,
          hookTimeout: 120_000,
        },
      },
      // The wide Office corpus (npm run test:wide): one long test that converts 468 files, each in a worker with a time
      // limit.
      {
        extends: true,
        test: { name: 'wide', include: ['tests/wide/**/*.test.ts'], environment: 'node', testTimeout: 4 * 3600_000 },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/e2e/global-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          // expect.poll waits on a condition (a PDF checked, a job done); on a loaded two-core machine that takes
          // seconds, so its default of 1 s made tests fail that the UI passes. 30 s is the UI's own PDF-check limit.
          expect: { poll: { timeout: 30_000 } },
          // One Chromium at a time: the machine has two cores and the app runs its own workers.
          fileParallelism: false,
        },
      },
    ],
  },
});
