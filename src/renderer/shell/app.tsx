import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { defineMessages, FormattedMessage, useIntl } from 'react-intl';
import { bridgeKind } from '../bridge/bridge.js';
import { Avatar } from '../people/avatar.js';
import { CountBadge } from '../people/badges.js';
import { Icon, type IconName } from '../components/icon.js';
import { Toasts } from './toasts.js';
import { OfflineBanner } from './offline-banner.js';
import { useRelayRetries } from './use-relay-retries.js';
import { subscribeToMain } from '../bridge/events.js';
import { PersonName } from '../people/person-name.js';
import { Chats } from '../chats/chats.js';
import { unreadTotal } from '../chats/conversations-slice.js';
import { useStore } from '../store.js';
import type { View } from './ui-slice.js';

/**
 * The screens a start with an open wallet does not show first load in chunks of their own: the
 * page that opens on the inbox parses and runs less before it draws. They are fetched once the
 * inbox is on screen (see Shell), so switching to one later finds it loaded.
 */
const screens = {
  directory: () => import('../directory/directory.js'),
  groups: () => import('../groups/groups.js'),
  onboarding: () => import('../onboarding/onboarding.js'),
  unlock: () => import('./unlock.js'),
  requests: () => import('../requests/requests.js'),
  settings: () => import('../settings/settings.js'),
  stakes: () => import('../stakes/stakes.js'),
};
const Directory = lazy(() => screens.directory().then((m) => ({ default: m.Directory })));
const Groups = lazy(() => screens.groups().then((m) => ({ default: m.Groups })));
const Onboarding = lazy(() => screens.onboarding().then((m) => ({ default: m.Onboarding })));
const Unlock = lazy(() => screens.unlock().then((m) => ({ default: m.Unlock })));
const Requests = lazy(() => screens.requests().then((m) => ({ default: m.Requests })));
const Settings = lazy(() => screens.settings().then((m) => ({ default: m.Settings })));
const Stakes = lazy(() => screens.stakes().then((m) => ({ default: m.Stakes })));

export function App() {
  const status = useStore((s) => s.status);
  const onboarding = useStore((s) => s.onboarding);
  const theme = useStore((s) => s.theme);
  const [fatal, setFatal] = useState<{ code: string; message: string } | null>(null);

  useEffect(() => {
    const off = subscribeToMain();
    useStore
      .getState()
      .startApp()
      .catch((e: Error) => setFatal({ code: (e as { code?: string }).code ?? 'error', message: e.message }));
    return off;
  }, []);

  useEffect(() => {
    if (theme === 'system') delete document.documentElement.dataset.theme;
    else document.documentElement.dataset.theme = theme;
  }, [theme]);

  if (fatal || bridgeKind === null)
    return (
      <Fatal
        title={
          fatal?.code === 'stale-tab' ? (
            <FormattedMessage
              id="app.fatal.staleTab"
              defaultMessage="This tab is from an earlier start of the app"
              description="Heading when the browser tab belongs to an earlier run of the app."
            />
          ) : (
            <FormattedMessage
              id="app.fatal.unreachable"
              defaultMessage="Can't reach the app"
              description="Heading when the page cannot talk to the app process."
            />
          )
        }
        text={
          fatal?.message ?? (
            <FormattedMessage
              id="app.fatal.needLink"
              defaultMessage="This page must be opened from the link the app printed when it started."
              description="Explains that the web page needs the launch link the app printed in the terminal."
            />
          )
        }
      />
    );
  if (!status) return <Splash />;
  let screen;
  if (status.hasWallet && !status.unlocked) screen = <Unlock />;
  // A revoked device is not signed in, yet has its conversations to read: the shell, with the reason.
  else if (onboarding || (!status.ready && !status.relay.revoked)) screen = <Onboarding />;
  else screen = <Shell />;
  return (
    <>
      <Suspense fallback={<Splash />}>{screen}</Suspense>
      <Toasts />
    </>
  );
}

function Splash() {
  return (
    <main className="splash" aria-busy="true">
      <span className="brand-mark" aria-hidden="true">
        <Icon name="chat" size={22} />
      </span>
      <p>
        <FormattedMessage id="app.splash.opening" defaultMessage="Opening…" description="Shown while the app starts." />
      </p>
    </main>
  );
}

function Fatal({ title, text }: { title: ReactNode; text: ReactNode }) {
  return (
    <main className="splash">
      <span className="brand-mark danger" aria-hidden="true">
        <Icon name="alert" size={22} />
      </span>
      <h1>{title}</h1>
      <p role="alert">{text}</p>
    </main>
  );
}

const navLabels = defineMessages({
  chats: { id: 'nav.chats', defaultMessage: 'Chats', description: 'Main navigation: the list of conversations.' },
  requests: {
    id: 'nav.requests',
    defaultMessage: 'Requests',
    description: 'Main navigation: contact requests and group invitations waiting for an answer.',
  },
  directory: {
    id: 'nav.directory',
    defaultMessage: 'Directory',
    description: "Main navigation: the relay's public directory of people.",
  },
  groups: { id: 'nav.groups', defaultMessage: 'Groups', description: 'Main navigation: group chats.' },
  stakes: {
    id: 'nav.stakes',
    defaultMessage: 'Stakes',
    description: 'Main navigation: refundable stakes paid to or by strangers.',
  },
  settings: { id: 'nav.settings', defaultMessage: 'Settings', description: 'Main navigation: settings.' },
});

const NAV: { view: View; icon: IconName; key: string }[] = [
  { view: 'chats', icon: 'chat', key: '1' },
  { view: 'requests', icon: 'inbox', key: '2' },
  { view: 'directory', icon: 'search', key: '3' },
  { view: 'groups', icon: 'users', key: '4' },
  { view: 'stakes', icon: 'shield', key: '5' },
  { view: 'settings', icon: 'settings', key: '6' },
];

function Shell() {
  const view = useStore((s) => s.view);
  const showView = useStore((s) => s.showView);
  const intl = useIntl();

  useEffect(() => {
    // Ctrl/Cmd+1…6 switch sections, as in most desktop chat apps.
    const onKey = (e: KeyboardEvent) => {
      if (!(e.ctrlKey || e.metaKey) || e.altKey || e.shiftKey) return;
      const item = NAV.find((n) => n.key === e.key);
      if (item) {
        e.preventDefault();
        showView(item.view);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [showView]);
  useUnreadTitle();
  useReadOnReturn();
  useRelayRetries();
  const listed = useStore((s) => s.conversationsLoaded);
  useEffect(() => {
    if (!listed) return;
    // once the inbox is drawn and the page idle: the other sections, ready before they are asked for
    const id = requestIdleCallback(() => Object.values(screens).forEach((load) => void load().catch(() => undefined)), {
      timeout: 2000,
    });
    return () => cancelIdleCallback(id);
  }, [listed]);

  return (
    <div className="shell">
      <Sidebar />
      <main className="content" aria-label={intl.formatMessage(navLabels[view])}>
        <OfflineBanner />
        {view === 'chats' && <Chats />}
        <Suspense fallback={null}>
          {view === 'requests' && <Requests />}
          {view === 'directory' && <Directory />}
          {view === 'groups' && <Groups />}
          {view === 'stakes' && <Stakes />}
          {view === 'settings' && <Settings />}
        </Suspense>
      </main>
    </div>
  );
}

const BASE_TITLE = document.title;

/** The tab or window title carries the unread count, as "(3) Relay Messenger". */
function useUnreadTitle() {
  const unread = useStore(unreadTotal);
  const intl = useIntl();
  useEffect(() => {
    document.title =
      unread > 0
        ? intl.formatMessage(
            {
              id: 'app.title.unread',
              defaultMessage: '({count, number}) {title}',
              description: 'Window title with the number of unread messages before the app name.',
            },
            { count: unread, title: BASE_TITLE },
          )
        : BASE_TITLE;
  }, [unread, intl]);
  useEffect(() => () => void (document.title = BASE_TITLE), []);
}

/** What arrived in the open conversation while the window was away is read once the person is back. */
function useReadOnReturn() {
  useEffect(() => {
    const back = () => useStore.getState().conversationSeen();
    window.addEventListener('focus', back);
    document.addEventListener('visibilitychange', back);
    return () => {
      window.removeEventListener('focus', back);
      document.removeEventListener('visibilitychange', back);
    };
  }, []);
}

function Sidebar() {
  const view = useStore((s) => s.view);
  const showView = useStore((s) => s.showView);
  const unread = useStore(unreadTotal);
  const requests = useStore((s) => s.requests.length + s.invitations.length);
  const status = useStore((s) => s.status);
  const sync = useStore((s) => s.sync);
  const reachable = useStore((s) => s.appReachable);
  const online = reachable && (status?.relay.connected ?? false);
  const intl = useIntl();
  const syncText = !reachable
    ? intl.formatMessage({
        id: 'app.sync.disconnected',
        defaultMessage: 'Disconnected',
        description: 'Connection state under the own name: the page lost its connection to the app process.',
      })
    : status?.relay.revoked
      ? intl.formatMessage({
          id: 'app.sync.revoked',
          defaultMessage: 'Device revoked',
          description: 'Connection state under the own name: this device was revoked.',
        })
      : !online
        ? intl.formatMessage({
            id: 'app.sync.offline',
            defaultMessage: 'Offline',
            description: 'Connection state under the own name: the relay cannot be reached.',
          })
        : sync?.state === 'syncing'
          ? intl.formatMessage({
              id: 'app.sync.syncing',
              defaultMessage: 'Syncing…',
              description: 'Connection state under the own name: catching up with the relay.',
            })
          : sync?.pendingOutbox
            ? intl.formatMessage(
                {
                  id: 'app.sync.waiting',
                  defaultMessage: '{count, plural, one {# waiting to send} other {# waiting to send}}',
                  description: 'Connection state under the own name: messages not yet sent.',
                },
                { count: sync.pendingOutbox },
              )
            : intl.formatMessage({
                id: 'app.sync.connected',
                defaultMessage: 'Connected',
                description: 'Connection state under the own name: connected to the relay.',
              });
  return (
    <aside className="sidebar">
      <div className="brand sidebar-brand">
        <span className="brand-mark" aria-hidden="true">
          <Icon name="chat" size={18} />
        </span>
        <span className="brand-name">
          <FormattedMessage id="app.brand" defaultMessage="Relay" description="The app's short name in the sidebar." />
        </span>
      </div>
      <nav
        aria-label={intl.formatMessage({
          id: 'nav.label',
          defaultMessage: 'Main',
          description: 'Accessible name of the main navigation.',
        })}
      >
        <ul>
          {NAV.map((n) => (
            <li key={n.view}>
              <button
                type="button"
                className={view === n.view ? 'nav-item active' : 'nav-item'}
                aria-current={view === n.view ? 'page' : undefined}
                onClick={() => showView(n.view)}
                title={intl.formatMessage(
                  {
                    id: 'nav.shortcut',
                    defaultMessage: '{label} (Ctrl+{key})',
                    description: 'Tooltip of a navigation item with its keyboard shortcut.',
                  },
                  { label: intl.formatMessage(navLabels[n.view]), key: n.key },
                )}
              >
                <Icon name={n.icon} size={19} />
                <span className="nav-label">{intl.formatMessage(navLabels[n.view])}</span>
                {n.view === 'chats' && (
                  <CountBadge
                    count={unread}
                    label={intl.formatMessage(
                      {
                        id: 'nav.badge.unreadCount',
                        defaultMessage: '{count, plural, one {# unread message} other {# unread messages}}',
                        description: 'Accessible name of the count on the Chats item of the navigation.',
                      },
                      { count: unread },
                    )}
                  />
                )}
                {n.view === 'requests' && (
                  <CountBadge
                    count={requests}
                    label={intl.formatMessage(
                      {
                        id: 'nav.badge.pendingCount',
                        defaultMessage: '{count, plural, one {# pending request} other {# pending requests}}',
                        description:
                          'Accessible name of the count on the Requests item of the navigation (contact requests and group invitations).',
                      },
                      { count: requests },
                    )}
                  />
                )}
              </button>
            </li>
          ))}
        </ul>
      </nav>
      {status?.address && (
        <button
          type="button"
          className="me"
          onClick={() => showView('settings')}
          title={intl.formatMessage({
            id: 'app.me.title',
            defaultMessage: 'Your profile',
            description: 'Tooltip of the own name at the bottom of the sidebar.',
          })}
        >
          {/* Named by its content, not aria-label: axe wants the visible handle and state inside the name, and they change. */}
          <span className="sr-only">
            <FormattedMessage
              id="app.me.label"
              defaultMessage="Your profile,"
              description="Read by screen readers before the own name and connection state (a space follows)."
            />{' '}
          </span>
          <Avatar name={status.handle ?? status.address} seed={status.address} size={32} />
          <span className="me-text">
            <PersonName address={status.address} handle={status.handle} className="me-name" />
            <span className={online ? 'conn online' : 'conn offline'}>
              <span className="dot" aria-hidden="true" />
              {syncText}
            </span>
          </span>
        </button>
      )}
    </aside>
  );
}
