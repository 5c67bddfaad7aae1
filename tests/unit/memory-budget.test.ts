import { describe, expect, test } from 'vitest';
import { estimatePeakBytes, memoryBudgetBytes, overBudgetMessage } from '../../shared/memory-budget.ts';

const MB = 1024 ** 2;

describe('memory budget', () => {
  test('half the device memory, 4 GB when the browser does not say', () => {
    expect(memoryBudgetBytes(2)).toBe(1024 ** 3);
    expect(memoryBudgetBytes(undefined)).toBe(4 * 1024 ** 3);
  });

  test('a job that fits starts; one that does not says how much it needs and what fits', () => {
    expect(overBudgetMessage('merge-pdf', [100 * MB, 50 * MB], 8)).toBeUndefined();
    const phone = overBudgetMessage('merge-pdf', [100 * MB, 100 * MB, 100 * MB], 1);
    expect(phone).toMatch(/would need about 2\.5 GB of memory; this device gives a browser tab about 512\.0 MB/);
    expect(phone).toMatch(/Files up to about 45 MB fit here/);
    expect(overBudgetMessage('merge-pdf', [50 * MB, 50 * MB, 100 * MB], 2)).toMatch(
      /The first 2 of the 3 files fit together/,
    );
    const single = overBudgetMessage('rotate-pdf', [900 * MB], 1);
    expect(single).toMatch(/Files up to about 45 MB fit here/);
  });

  test('the estimate grows with the input', () => {
    expect(estimatePeakBytes('merge-pdf', [200 * MB])).toBeGreaterThan(estimatePeakBytes('merge-pdf', [100 * MB]));
  });
});
