import type { ToolContent } from '../types.ts';

/** Detail-page copy of age-calculator: what the tool does in Folio, on the device (shown on its page, /tools/<id>). */
export const content: ToolContent = {
  overview:
    'Age Calculator works out an exact age in years, months and days from a date of birth, correctly handling ' +
    'leap years and months of different lengths. It also shows the total number of days lived and how long ' +
    'until the next birthday.',
  features: [
    'Exact age in years, months and days',
    'Correct for leap days and month ends',
    'Total days lived',
    'Countdown to the next birthday',
    'Optional age on a date other than today',
  ],
  usage: [
    'Click Get Started.',
    'Enter the date of birth.',
    'Optionally choose another date to calculate the age on.',
    'Click Calculate to see the result.',
  ],
  perfectFor: [
    'Checking eligibility dates for schools, sports or benefits',
    'Filling in forms that ask for an exact age',
    'Planning birthday celebrations',
    'Working out the age of documents or anniversaries',
  ],
  privacy:
    'The calculation happens in your browser. Dates of birth are personal data, and Folio never sends or stores them.',
  whyUse:
    'Date arithmetic is easy to get wrong around leap years and month ends. Folio handles those cases correctly ' +
    'and keeps your details to yourself.',
};
