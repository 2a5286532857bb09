#!/usr/bin/env node
// Runs the built bot-cli (rebuilt first if a source changed); see .config/build-node.mjs.
import { runEntry } from '../.config/build-node.mjs';

await runEntry('bot-cli');
