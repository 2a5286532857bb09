/**
 * The only file that touches `window.messenger`. Electron's preload puts it there; in web mode
 * the WebSocket bridge stands in. Both satisfy MessengerBridge, so nothing above this file can
 * tell them apart. Errors come out as BridgeError with a code and a plain-language message, in
 * the person's language where the catalogue has main's sentence.
 */
import { decodeBridgeError } from '../../shared/ipc/bridge-methods.js';
import type { BridgeCommands, CommandArgs, CommandName, CommandResult, MessengerBridge } from '../../shared/ipc.js';
import { currentIntl } from '../i18n/current-intl.js';
import { noBridgeMessage, translateError } from '../i18n/error-messages.js';
import { createWebBridge, onAppLink as onWebLink, takeSecret } from './web-bridge.js';

declare global {
  interface Window {
    messenger?: MessengerBridge;
  }
}

export class BridgeError extends Error {
  constructor(
    readonly code: string,
    message: string,
    /** the technical reason behind the sentence, for "Details" (never translated) */
    readonly detail?: string,
  ) {
    super(message);
    this.name = 'BridgeError';
  }
}

function pickBridge(): MessengerBridge | null {
  if (window.messenger) return window.messenger;
  const secret = takeSecret();
  return secret ? createWebBridge(secret) : null;
}

const bridge = pickBridge();

/** 'electron', 'web', or null when the page was opened without the launch link. */
export const bridgeKind: 'electron' | 'web' | null = window.messenger ? 'electron' : bridge ? 'web' : null;

export async function call<K extends CommandName>(name: K, args: CommandArgs<K>): Promise<CommandResult<K>> {
  if (!bridge) throw new BridgeError('no-bridge', noBridgeMessage(currentIntl()));
  const commands: BridgeCommands = bridge;
  const method = commands[name];
  try {
    return await method(args);
  } catch (e) {
    const text = e instanceof Error ? e.message : String(e);
    // Electron prefixes rejected invoke errors with its own text; keep only ours.
    const { code, message, detail } = decodeBridgeError(
      text.replace(/^Error invoking remote method '[^']+': (Error: )?/, ''),
    );
    throw new BridgeError(code, translateError(currentIntl(), message), detail);
  }
}

export const on: MessengerBridge['on'] = (event, fn) => (bridge ? bridge.on(event, fn) : () => undefined);

/** The link to the app itself: in web mode a socket that closes when the app stops; Electron's never does. */
export const onAppLink = (fn: (up: boolean) => void): (() => void) =>
  bridgeKind === 'web' ? onWebLink(fn) : () => undefined;
