import type { ToolContent } from '../types.ts';

/** Detail-page copy of word-counter: what the tool does in Folio, on the device (shown on its page, /tools/<id>). */
export const content: ToolContent = {
  overview:
    'Word Counter counts the words, characters, lines, sentences and paragraphs of any text as you type or ' +
    'paste it, and estimates the reading time. It counts sensibly in every language, including Chinese, ' +
    'Japanese and Korean.',
  features: [
    'Words, characters with and without spaces, lines and spaces',
    'Sentences, paragraphs and estimated reading time',
    'Most frequent keywords',
    'Unicode-aware counting, including CJK text',
    'Live results as you type, or drop in a .txt file',
  ],
  usage: [
    'Click Get Started.',
    'Type or paste your text, or drop a text file.',
    'Read the counts, which update as you edit.',
    'Adjust your text until it fits the limit you need.',
  ],
  perfectFor: [
    'Keeping essays and applications within a word limit',
    'Checking posts and ad copy against character limits',
    'Estimating how long a speech will take',
    'Spotting overused words in an article',
  ],
  privacy:
    'Your text is counted in the page itself. It is never sent over the network or saved, which makes it safe ' +
    'for unpublished work.',
  whyUse:
    'Folio counts instantly and accurately in any language, shows more than word totals, and keeps drafts private.',
};
