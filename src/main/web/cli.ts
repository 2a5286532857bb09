/** The `npm run web` entry (see web-command.ts). */
import { main } from './web-command.js';

void main(process.argv.slice(2));
