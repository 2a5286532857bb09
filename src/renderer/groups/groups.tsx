import { useEffect, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Avatar } from '../people/avatar.js';
import { VerifiedBadge } from '../people/badges.js';
import { EmptyState } from '../components/empty-state.js';
import { Icon } from '../components/icon.js';
import { useStore } from '../store.js';
import { GroupDetail } from './group-detail.js';
import { CreateGroupDialog } from './create-group-dialog.js';

const GROUPS_REFRESH_MS = 30_000;

/** The Groups section: my groups and the public ones to discover, beside the chosen group. */
export function Groups() {
  const groups = useStore((s) => s.groups);
  const loadGroups = useStore((s) => s.loadGroups);
  const selectGroup = useStore((s) => s.selectGroup);
  const showToast = useStore((s) => s.showToast);
  const [tab, setTab] = useState<'mine' | 'discover'>('mine');
  const [createOpen, setCreateOpen] = useState(false);
  const intl = useIntl();
  const myGroups = intl.formatMessage({
    id: 'groups.tabs.mine',
    defaultMessage: 'My groups',
    description: 'Tab of the group list: groups one is in',
  });

  useEffect(() => {
    loadGroups().catch((e: Error) => showToast('error', e.message));
  }, [loadGroups, showToast]);

  // Groups others create appear without leaving the screen: on every tab switch, and every
  // half minute while it is open (quietly: a failed refresh keeps the list shown).
  useEffect(() => {
    const t = setInterval(() => void loadGroups().catch(() => undefined), GROUPS_REFRESH_MS);
    return () => clearInterval(t);
  }, [loadGroups]);
  const chooseTab = (next: 'mine' | 'discover') => {
    setTab(next);
    loadGroups().catch((e: Error) => showToast('error', e.message));
  };

  const list = tab === 'mine' ? groups.mine : groups.discover;
  const groupsTitle = intl.formatMessage({
    id: 'groups.title',
    defaultMessage: 'Groups',
    description: 'Heading of the Groups screen',
  });
  return (
    <div className="split">
      <section
        className="pane list-pane"
        aria-label={intl.formatMessage({
          id: 'groups.list.label',
          defaultMessage: 'Group list',
          description: 'Accessible name of the pane listing groups',
        })}
      >
        <header className="pane-header">
          <h1>{groupsTitle}</h1>
          <button type="button" className="btn btn-primary btn-sm" onClick={() => setCreateOpen(true)}>
            <Icon name="plus" size={15} />{' '}
            <FormattedMessage
              id="groups.list.newGroup"
              defaultMessage="New group"
              description="Button above the group list that opens the New group dialog"
            />
          </button>
        </header>
        <div className="tabs" role="tablist" aria-label={groupsTitle}>
          <button
            type="button"
            role="tab"
            aria-selected={tab === 'mine'}
            className={tab === 'mine' ? 'tab active' : 'tab'}
            onClick={() => chooseTab('mine')}
          >
            {myGroups}
          </button>
          <button
            type="button"
            role="tab"
            aria-selected={tab === 'discover'}
            className={tab === 'discover' ? 'tab active' : 'tab'}
            onClick={() => chooseTab('discover')}
          >
            <FormattedMessage
              id="groups.tabs.discover"
              defaultMessage="Discover"
              description="Tab of the group list: public groups on the relay one can join"
            />
          </button>
        </div>
        {/* The panel wraps the list: an <li> must sit in a list, so the <ul> cannot be the tabpanel itself. */}
        <div
          className="tab-panel"
          role="tabpanel"
          aria-label={
            tab === 'mine'
              ? myGroups
              : intl.formatMessage({
                  id: 'groups.tabs.publicLabel',
                  defaultMessage: 'Public groups',
                  description: 'Accessible name of the Discover tab’s list',
                })
          }
        >
          <ul className="conv-list">
            {groups.loaded && list.length === 0 && (
              <li className="list-note">
                {tab === 'mine' ? (
                  <FormattedMessage
                    id="groups.list.emptyMine"
                    defaultMessage="You're not in any group yet. Create one, or join a public group under Discover."
                    description="In the My groups tab when one is in no group; “Discover” is the other tab (groups.tabs.discover)"
                  />
                ) : (
                  <FormattedMessage
                    id="groups.list.emptyDiscover"
                    defaultMessage="No public groups on this relay yet."
                    description="In the Discover tab when the relay lists no public group"
                  />
                )}
              </li>
            )}
            {list.map((g) => (
              <li key={g.id}>
                <button
                  type="button"
                  className={groups.selectedId === g.id ? 'conv active' : 'conv'}
                  aria-current={groups.selectedId === g.id ? 'true' : undefined}
                  onClick={() => void selectGroup(g.id)}
                >
                  <Avatar name={g.name} seed={g.id} image={g.avatar} size={40} square />
                  <span className="conv-body">
                    <span className="conv-top">
                      <span className="conv-title">
                        <bdi className="truncate">{g.name}</bdi>
                        {g.verified && <VerifiedBadge />}
                      </span>
                      {g.hasPassword && <Icon name="lock" size={13} className="muted-icon" />}
                    </span>
                    <span className="conv-bottom">
                      <span className="conv-preview">
                        <FormattedMessage
                          id="groups.list.summary"
                          defaultMessage="{count, plural, one {# member} other {# members}} · {visibility, select, public {Public} other {Private}}"
                          description="Under a group’s name in the list; {count} is its member count, {visibility} “public” (listed under Discover) or “private”"
                          values={{ count: g.memberCount, visibility: g.isPublic ? 'public' : 'private' }}
                        />
                      </span>
                    </span>
                  </span>
                </button>
              </li>
            ))}
          </ul>
        </div>
      </section>
      <section
        className="pane detail-pane"
        aria-label={intl.formatMessage({
          id: 'groups.detail.label',
          defaultMessage: 'Group details',
          description: 'Accessible name of the pane showing the chosen group',
        })}
      >
        {groups.detail ? (
          <GroupDetail g={groups.detail} />
        ) : (
          <EmptyState
            icon="users"
            title={groupsTitle}
            action={
              <button type="button" className="btn btn-primary" onClick={() => setCreateOpen(true)}>
                <Icon name="plus" />{' '}
                <FormattedMessage
                  id="groups.empty.create"
                  defaultMessage="Create a group"
                  description="Button in the group details pane when no group is chosen"
                />
              </button>
            }
          >
            <FormattedMessage
              id="groups.empty.hint"
              defaultMessage="Talk with several people at once. Every message is sealed separately for each member's devices."
              description="Text in the group details pane when no group is chosen"
            />
          </EmptyState>
        )}
      </section>
      <CreateGroupDialog open={createOpen} onClose={() => setCreateOpen(false)} />
    </div>
  );
}
