/**
 * The renderer's only way to main: one object, `window.messenger`, with one named method per
 * command of the contract and `on(event, fn)` for main's events. ipcRenderer itself never
 * crosses the bridge. Sandboxed, so this file is bundled to one CommonJS script.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { bridgeMethods, encodeBridgeError } from '../shared/ipc/bridge-methods.js';
// Types only: the contract's schemas (typebox) stay out of the preload bundle.
import type { EventName, IpcResult, MessengerBridge } from '../shared/ipc.js';

async function invoke(name: string, args: unknown): Promise<never> {
  const result = (await ipcRenderer.invoke('ipc', name, args)) as IpcResult<never>;
  if (result.ok) return result.value;
  // contextBridge keeps only an Error's message, so the code travels inside it.
  throw new Error(encodeBridgeError(result.error));
}

function subscribe(event: EventName, fn: (payload: unknown) => void): () => void {
  const listener = (_e: IpcRendererEvent, name: EventName, payload: unknown) => {
    if (name === event) fn(payload);
  };
  ipcRenderer.on('event', listener);
  return () => {
    ipcRenderer.removeListener('event', listener);
  };
}

const messenger = bridgeMethods(invoke as never, subscribe as never) satisfies MessengerBridge;

contextBridge.exposeInMainWorld('messenger', messenger);
