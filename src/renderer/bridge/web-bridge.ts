/**
 * Web mode: the same contract over a local WebSocket to the Node side. The launch link's
 * fragment carries a one-time code: it leaves the address bar at once (so it is neither in
 * history nor in a Referer) and is exchanged (`POST /session`) for the session secret, which
 * is kept in sessionStorage so that a reload of this tab stays signed in. The socket offers
 * the secret as a subprotocol.
 */
import { bridgeMethods } from '../../shared/ipc/bridge-methods.js';
import type {
  CommandArgs,
  CommandName,
  CommandResult,
  EventName,
  Events,
  IpcResult,
  MessengerBridge,
} from '../../shared/ipc.js';
import { encodeBridgeError } from '../../shared/ipc/bridge-methods.js';

const SECRET_KEY = 'messenger.secret';

/**
 * The session secret to offer, once known: from the launch code in the fragment (exchanged
 * here, once), else from an earlier load of this tab; null when the page was opened without
 * the link.
 */
export function takeSecret(): Promise<string> | null {
  const m = /(?:^#|&)code=([A-Za-z0-9_-]{16,128})/.exec(location.hash);
  if (m) {
    history.replaceState(null, '', location.pathname + location.search);
    return exchangeLaunchCode(m[1]);
  }
  const kept = sessionStorage.getItem(SECRET_KEY);
  return kept ? Promise.resolve(kept) : null;
}

async function exchangeLaunchCode(code: string): Promise<string> {
  let res: Response;
  try {
    res = await fetch('/session', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code }),
      cache: 'no-store',
      credentials: 'omit',
    });
  } catch {
    throw new Error(
      encodeBridgeError({ code: 'disconnected', message: 'Could not reach the app. Is it still running?' }),
    );
  }
  const body = (await res.json().catch(() => null)) as { secret?: string; error?: string; code?: string } | null;
  if (!res.ok || typeof body?.secret !== 'string') {
    throw new Error(
      encodeBridgeError({ code: body?.code ?? 'launch-refused', message: body?.error ?? 'The app refused this link.' }),
    );
  }
  sessionStorage.setItem(SECRET_KEY, body.secret);
  return body.secret;
}

/**
 * The socket cannot say why it was refused. If the page's own server still answers, the app
 * is running and this tab's secret is from an earlier start (a restart makes a new one).
 */
async function whyRefused(): Promise<{ code: string; message: string }> {
  try {
    const res = await fetch('/', { method: 'HEAD', cache: 'no-store' });
    if (res.ok)
      return {
        code: 'stale-tab',
        message:
          'The app was restarted since this tab was opened, so the link this tab used no longer works. Open the new link the app printed when it started (pasting it into this tab works).',
      };
  } catch {
    // the server is gone too
  }
  return { code: 'disconnected', message: 'Could not reach the app. Is it still running?' };
}

/** Settles one call with the server's answer to it. */
type Pending = (result: IpcResult<unknown>) => void;

/**
 * Whether the socket to the app is open. The relay's status comes over this socket, so with it
 * closed (the app stopped, or restarted) nothing else would ever say so: the page shows this.
 */
const linkListeners = new Set<(up: boolean) => void>();
let linkUp = true;
function setLink(up: boolean): void {
  if (up === linkUp) return;
  linkUp = up;
  for (const fn of linkListeners) fn(up);
}

/** Calls `fn` each time the socket to the app closes (false) or opens again (true). */
export function onAppLink(fn: (up: boolean) => void): () => void {
  linkListeners.add(fn);
  return () => linkListeners.delete(fn);
}
type ServerFrame =
  { type: 'result'; id: number; result: IpcResult<unknown> } | { type: 'event'; event: EventName; payload: unknown };

export function createWebBridge(secret: Promise<string>): MessengerBridge {
  const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ipc`;
  const pending = new Map<number, Pending>();
  const listeners = new Map<EventName, Set<(p: unknown) => void>>();
  let seq = 0;
  let socket: WebSocket | null = null;
  let opened: Promise<WebSocket> | null = null;
  let retryMs = 250;

  function connect(): Promise<WebSocket> {
    if (opened) return opened;
    const attempt = secret.then(open);
    opened = attempt;
    // A refused launch code or socket fails this attempt with its reason; a later call tries again.
    attempt.catch(() => {
      if (opened === attempt) opened = null;
    });
    return attempt;
  }

  function open(sessionSecret: string): Promise<WebSocket> {
    return new Promise<WebSocket>((resolve, reject) => {
      const ws = new WebSocket(url, ['messenger.v1', `secret.${sessionSecret}`]);
      ws.onopen = () => {
        socket = ws;
        retryMs = 250;
        resolve(ws);
        setLink(true);
      };
      ws.onmessage = (ev) => {
        const frame = JSON.parse(String(ev.data)) as ServerFrame;
        if (frame.type === 'result') {
          const settle = pending.get(frame.id);
          if (!settle) return;
          pending.delete(frame.id);
          settle(frame.result);
        } else if (frame.type === 'event') {
          listeners.get(frame.event)?.forEach((fn) => fn(frame.payload));
        }
      };
      ws.onclose = () => {
        const wasOpen = socket === ws;
        socket = null;
        opened = null;
        setLink(false);
        for (const settle of pending.values())
          settle({
            ok: false,
            error: { code: 'disconnected', message: 'Lost the connection to the app. Reconnecting…' },
          });
        pending.clear();
        if (!wasOpen) void whyRefused().then((why) => reject(new Error(encodeBridgeError(why))));
        // Events only flow on an open socket; reconnect so a restarted tab or a hiccup heals.
        if (listeners.size > 0) {
          setTimeout(() => void connect().catch(() => undefined), retryMs);
          retryMs = Math.min(retryMs * 2, 3000);
        }
      };
    });
  }

  async function invoke<K extends CommandName>(name: K, args: CommandArgs<K>): Promise<CommandResult<K>> {
    const ws = socket ?? (await connect());
    const id = ++seq;
    return new Promise((resolve, reject) => {
      pending.set(id, (result) => {
        // The server answers a call with the result of the command it named (web/web-server.ts).
        if (result.ok) resolve(result.value as CommandResult<K>);
        else reject(new Error(encodeBridgeError(result.error)));
      });
      ws.send(JSON.stringify({ type: 'call', id, name, args }));
    });
  }

  return bridgeMethods(invoke, (event, fn) => {
    let set = listeners.get(event);
    if (!set) listeners.set(event, (set = new Set()));
    // The server sends each event with its own payload (app-core/app-services.ts's emit is typed so).
    const f = (payload: unknown) => fn(payload as Events[typeof event]);
    set.add(f);
    void connect().catch(() => undefined);
    return () => {
      set.delete(f);
    };
  });
}

export type { Events };
