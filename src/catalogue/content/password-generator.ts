import type { ToolContent } from '../types.ts';

/**
 * Detail-page copy of password-generator: what the tool does in Folio, on the device (shown on its page, /tools/<id>).
 */
export const content: ToolContent = {
  overview:
    "Password Generator creates strong random passwords using your browser's cryptographic random number " +
    'generator. Choose a length from 8 to 32 characters and which kinds of characters to include, and see how ' +
    'strong the result is.',
  features: [
    'Cryptographically secure randomness, without bias towards any character',
    'Length from 8 to 32 characters, 12 by default',
    'Uppercase, lowercase, digits and symbols, each on or off',
    'Option to exclude look-alike characters such as l, 1, O and 0',
    'Entropy in bits and a strength label; copy with one click',
  ],
  usage: [
    'Click Get Started.',
    'Choose the length and the kinds of characters.',
    'Generate a password and copy it.',
    'Paste it into your password manager or the sign-up form.',
  ],
  perfectFor: [
    'Creating a unique password for every account',
    'Setting Wi-Fi and router passwords',
    'Choosing a password for Protect PDF',
    'Generating temporary passwords for colleagues',
  ],
  privacy:
    'Passwords are generated in your browser and never sent or stored anywhere. Once you close the tool, they ' +
    'exist only where you pasted them.',
  whyUse:
    'A password generated on a server has been seen by that server. Folio generates yours on your device with ' +
    'unbiased cryptographic randomness.',
};
