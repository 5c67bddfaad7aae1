import type { ToolContent } from '../types.ts';

/** Detail-page copy of unit-converter: what the tool does in Folio, on the device (shown on its page, /tools/<id>). */
export const content: ToolContent = {
  overview:
    'Unit Converter converts between units of length, mass, temperature, volume, area, speed, time and data ' +
    'size, with exact conversion factors and sensible rounding. Swap the direction with one click.',
  features: [
    'Length: mm, cm, m, km, in, ft, yd and mi',
    'Mass, temperature, volume, area, speed, time and data size',
    'Exact factors, such as 1 mile = 1.609344 km',
    'Swap button to reverse a conversion',
    'Results rounded sensibly without losing precision',
  ],
  usage: [
    'Click Get Started.',
    'Choose a category, then the units to convert from and to.',
    'Enter the value.',
    'Click Calculate to see the converted value.',
  ],
  perfectFor: [
    'Following recipes that use unfamiliar units',
    'Students checking physics and chemistry homework',
    'Travellers converting distances, speeds and temperatures',
    'Comparing storage sizes in MB, GB and GiB',
  ],
  privacy: 'All conversions are computed in the page. Nothing you enter is transmitted or stored.',
  whyUse:
    'Folio uses exact, standard conversion factors and covers the everyday categories in one place, without ads ' +
    'or tracking.',
};
