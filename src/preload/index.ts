/**
 * The renderer's only way to main: one object, `window.messenger`, with one named method per
 * command of the contract and `on(event, fn)` for main's events. ipcRenderer itself never
 * crosses the bridge. Sandboxed, so this file is bundled to one CommonJS script.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { bridgeMethods, encodeBridgeError } from '../shared/ipc/bridge-methods.js';
// Types only: the contract's schemas (typebox) stay out of the preload bundle.
import type {
  CommandArgs,
  CommandName,
  CommandResult,
  EventName,
  Events,
  IpcResult,
  MessengerBridge,
} from '../shared/ipc.js';

async function invoke<K extends CommandName>(name: K, args: CommandArgs<K>): Promise<CommandResult<K>> {
  // The doorway answers each command with an IpcResult of that command's result (main/ipc/doorway.ts).
  const result: IpcResult<CommandResult<K>> = await ipcRenderer.invoke('ipc', name, args);
  if (result.ok) return result.value;
  // contextBridge keeps only an Error's message, so the code travels inside it.
  throw new Error(encodeBridgeError(result.error));
}

function subscribe<E extends EventName>(event: E, fn: (payload: Events[E]) => void): () => void {
  // Main sends each event with its own payload (app-core/app-services.ts's emit is typed so).
  const listener = (_e: IpcRendererEvent, name: EventName, payload: Events[E]) => {
    if (name === event) fn(payload);
  };
  ipcRenderer.on('event', listener);
  return () => {
    ipcRenderer.removeListener('event', listener);
  };
}

const messenger = bridgeMethods(invoke, subscribe) satisfies MessengerBridge;

contextBridge.exposeInMainWorld('messenger', messenger);
