/**
 * The detail-page copy of the 25 tools (spec §3 "Tool info content", Part A.2 and A.4): every
 * section has content, nothing is duplicated between tools, no copy promises server-side deletion
 * or uploads, and a few mechanical typo checks.
 */
import { describe, expect, test } from 'vitest';
import { tools } from '../../src/catalogue/index.ts';

const allText = (t: (typeof tools)[number]) => [
  t.content.overview,
  ...t.content.features,
  ...t.content.usage,
  ...t.content.perfectFor,
  t.content.privacy,
  t.content.whyUse,
];

describe('tool detail copy', () => {
  test('every section of every tool has content', () => {
    for (const { id, content } of tools) {
      expect(content.overview.length, id).toBeGreaterThan(80);
      expect(content.features.length, id).toBeGreaterThanOrEqual(4);
      expect(content.usage.length, id).toBeGreaterThanOrEqual(3);
      expect(content.perfectFor.length, id).toBeGreaterThanOrEqual(3);
      expect(content.privacy.length, id).toBeGreaterThan(60);
      expect(content.whyUse.length, id).toBeGreaterThan(60);
    }
  });

  test('no paragraph or list item is repeated, within a tool or across tools', () => {
    const seen = new Map<string, string>();
    for (const tool of tools) {
      for (const text of [
        tool.content.overview,
        ...tool.content.features,
        ...tool.content.perfectFor,
        tool.content.privacy,
        tool.content.whyUse,
      ]) {
        const key = text.toLowerCase();
        expect(seen.get(key), `"${text}" in ${tool.id} repeats ${seen.get(key)}`).toBeUndefined();
        seen.set(key, tool.id);
      }
    }
  });

  test('no claim of uploads, servers deleting files, or invented numbers', () => {
    for (const tool of tools) {
      for (const text of allText(tool)) {
        expect(text, tool.id).not.toMatch(
          /\b(auto-?delet\w*|deleted (after|within)|within (1|one) hour|60 minutes|our servers? (store|keep|delete))/i,
        );
        expect(text, tool.id).not.toMatch(/\b(10M\+|99\.9%|24\/7|50\+ tools)/);
      }
    }
  });

  test('usage steps of file tools start with the modal button the page shows', () => {
    for (const tool of tools) {
      const button = tool.kind === 'file' ? 'Upload Files' : 'Get Started';
      expect(tool.content.usage[0], tool.id).toContain(`Click ${button}`);
    }
  });

  test('mechanical typo checks: doubled words, double spaces, stray spaces before punctuation, sentence ends', () => {
    for (const tool of tools) {
      for (const text of allText(tool)) {
        expect(text, tool.id).not.toMatch(/\b(\w+) \1\b/i);
        expect(text, tool.id).not.toMatch(/ {2}|\s[,;:!?]|\s\.(?!\w)/);
        expect(text.trim(), tool.id).toBe(text);
      }
      for (const paragraph of [
        tool.content.overview,
        tool.content.privacy,
        tool.content.whyUse,
        ...tool.content.usage,
      ]) {
        expect(paragraph, tool.id).toMatch(/[.!?]$/);
      }
      for (const item of [...tool.content.features, ...tool.content.perfectFor])
        expect(item, tool.id).not.toMatch(/\.$/);
    }
  });
});
