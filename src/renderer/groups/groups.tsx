import { useEffect, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { GroupInfo } from '../../shared/domain.js';
import { Avatar } from '../people/avatar.js';
import { VerifiedBadge } from '../people/badges.js';
import { Dialog } from '../components/dialog.js';
import { EmptyState } from '../components/empty-state.js';
import { Icon } from '../components/icon.js';
import { FormError } from '../components/form-error.js';
import { DialogFooter } from '../components/dialog-footer.js';
import { SecretKeyList } from '../components/secret-key-list.js';
import { CopyButton } from '../components/copy-button.js';
import { listTime } from '../i18n/format.js';
import { useStore } from '../store.js';
import { useAction } from '../shell/use-action.js';
import { avatarProblem, readAvatar } from './avatar-file.js';
import { GroupMembers } from './group-members.js';

const GROUPS_REFRESH_MS = 30_000;

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

function GroupDetail({ g }: { g: GroupInfo }) {
  const openGroupChat = useStore((s) => s.openGroupChat);
  const leaveGroup = useStore((s) => s.leaveGroup);
  const joinGroup = useStore((s) => s.joinGroup);
  const me = useStore((s) => s.status?.address?.toLowerCase());
  const [joinOpen, setJoinOpen] = useState(false);
  const intl = useIntl();
  const act = useAction(async (what: 'open' | 'leave' | 'join') => {
    if (what === 'open') await openGroupChat(g.id);
    else if (what === 'leave') await leaveGroup(g.id);
    else await joinGroup(g.id);
  });
  return (
    <div className="detail">
      <header className="detail-hero">
        <Avatar name={g.name} seed={g.id} image={g.avatar} size={64} square />
        <div>
          <h2>
            <bdi>{g.name}</bdi> {g.verified && <VerifiedBadge />}
          </h2>
          <p className="subtle">
            <FormattedMessage
              id="groups.detail.summary"
              defaultMessage="{visibility, select, public {Public group} other {Private group}}{password, select, yes { · Password protected} other {}} · {count, plural, one {# member} other {# members}} · Created {created}"
              description="Under the group’s name on its page; {visibility} is “public” or “private”, {password} “yes” when joining asks for a password, {count} the member count, {created} when it was created (a time, weekday or date)"
              values={{
                visibility: g.isPublic ? 'public' : 'private',
                password: g.hasPassword ? 'yes' : 'no',
                count: g.memberCount,
                created: listTime(g.createdAt, intl),
              }}
            />
          </p>
        </div>
      </header>
      <FormError error={act.error} />
      <div className="row">
        {g.isMember ? (
          <>
            <button type="button" className="btn btn-primary" onClick={() => void act.run('open')} disabled={act.busy}>
              <Icon name="chat" size={16} />{' '}
              <FormattedMessage
                id="groups.detail.openChat"
                defaultMessage="Open chat"
                description="Button on a group’s page that opens its conversation"
              />
            </button>
            {!(g.isCreator && g.memberCount > 1) && (
              <button
                type="button"
                className="btn btn-danger-ghost"
                onClick={() => void act.run('leave')}
                disabled={act.busy}
              >
                <FormattedMessage
                  id="groups.detail.leave"
                  defaultMessage="Leave group"
                  description="Button on a group’s page that leaves the group"
                />
              </button>
            )}
          </>
        ) : (
          <button
            type="button"
            className="btn btn-primary"
            onClick={() => (g.hasPassword ? setJoinOpen(true) : void act.run('join'))}
            disabled={act.busy}
          >
            {g.hasPassword && <Icon name="lock" size={15} />}{' '}
            <FormattedMessage
              id="groups.detail.join"
              defaultMessage="Join group"
              description="Button on a public group’s page that joins it"
            />
          </button>
        )}
      </div>
      {g.isMember && g.members && <GroupMembers g={g} me={me ?? ''} />}
      {(g.canManage ?? g.isCreator) && <BotTokens g={g} />}
      <JoinDialog g={g} open={joinOpen} onClose={() => setJoinOpen(false)} />
    </div>
  );
}

function BotTokens({ g }: { g: GroupInfo }) {
  const tokens = useStore((s) => s.groups.tokens);
  const mintBotToken = useStore((s) => s.mintBotToken);
  const revokeBotToken = useStore((s) => s.revokeBotToken);
  const intl = useIntl();
  const title = intl.formatMessage({
    id: 'groups.tokens.title',
    defaultMessage: 'Bot tokens',
    description: 'Heading of the bot token section on a group’s page, and name of its list',
  });
  const groupId = intl.formatMessage({
    id: 'groups.tokens.groupId',
    defaultMessage: 'Group ID',
    description: 'Label of the group’s id (a long code) in the bot token section',
  });
  return (
    <section className="section" aria-labelledby="tokens-title">
      <h3 id="tokens-title">{title}</h3>
      <p className="subtle small">
        <FormattedMessage
          id="groups.tokens.hint"
          defaultMessage="A bot token lets a script post into this group. Its posts are marked as a bot's."
          description="Explanation under the Bot tokens heading"
        />
      </p>
      <div className="row tight">
        <span className="small subtle">{groupId}</span>
        <code className="inline-code" aria-label={groupId} data-copy-source={g.id} dir="ltr">
          {g.id}
        </code>
        <CopyButton
          text={g.id}
          label={intl.formatMessage({
            id: 'groups.tokens.copyId',
            defaultMessage: 'Copy group ID',
            description: 'Button that copies the group’s id',
          })}
        />
      </div>
      <SecretKeyList
        key={g.id}
        texts={{
          label: intl.formatMessage({
            id: 'groups.tokens.new.label',
            defaultMessage: 'New bot token',
            description: 'Accessible name of the box showing a just-minted bot token.',
          }),
          note: intl.formatMessage({
            id: 'groups.tokens.new.note',
            defaultMessage: 'Copy this bot token now. It is shown only once and cannot be recovered.',
            description: 'Warning above a just-minted bot token, which the relay shows only once.',
          }),
          value: intl.formatMessage({
            id: 'groups.tokens.new.value',
            defaultMessage: 'Bot token secret',
            description: 'Accessible name of the just-minted bot token’s value.',
          }),
          copy: intl.formatMessage({
            id: 'groups.tokens.new.copy',
            defaultMessage: 'Copy bot token',
            description: 'Button that copies the just-minted bot token.',
          }),
        }}
        listLabel={title}
        icon="bot"
        items={tokens.map((t) => ({ ...t, revocable: true }))}
        nameLabel={intl.formatMessage({
          id: 'groups.tokens.nameLabel',
          defaultMessage: 'Bot name',
          description: 'Field label: the name a new bot token’s posts show',
        })}
        placeholder={intl.formatMessage({
          id: 'groups.tokens.namePlaceholder',
          defaultMessage: 'deploy-notifier',
          description: 'Example bot name in the Bot name field (a short script-like name)',
        })}
        nameRequired
        mintLabel={intl.formatMessage({
          id: 'groups.tokens.mint',
          defaultMessage: 'Mint token',
          description: 'Button that creates a new bot token',
        })}
        mintIcon="key"
        emptyText={intl.formatMessage({
          id: 'groups.tokens.empty',
          defaultMessage: 'No bot tokens yet.',
          description: 'In the bot token list when there is none',
        })}
        onMint={(name) => mintBotToken(g.id, name)}
        onRevoke={(id) => revokeBotToken(g.id, id)}
      />
    </section>
  );
}

function JoinDialog({ g, open, onClose }: { g: GroupInfo; open: boolean; onClose: () => void }) {
  const joinGroup = useStore((s) => s.joinGroup);
  const action = useAction(joinGroup);
  const [password, setPassword] = useState('');
  const intl = useIntl();
  return (
    <Dialog
      title={intl.formatMessage(
        {
          id: 'groups.join.title',
          defaultMessage: 'Join {name}',
          description: 'Title of the dialog asking for a group’s password; {name} is the group',
        },
        { name: g.name },
      )}
      open={open}
      onClose={onClose}
    >
      <form
        className="stack"
        onSubmit={async (e) => {
          e.preventDefault();
          if ((await action.run(g.id, password)).ok) {
            setPassword('');
            onClose();
          }
        }}
      >
        <p className="subtle">
          <FormattedMessage
            id="groups.join.hint"
            defaultMessage="This group asks for a password. Get it from someone in the group."
            description="Text in the dialog asking for a group’s password"
          />
        </p>
        <label className="field">
          <span className="field-label">
            <FormattedMessage
              id="groups.join.password"
              defaultMessage="Group password"
              description="Field label in the dialog asking for a group’s password"
            />
          </span>
          <input type="password" value={password} onChange={(e) => setPassword(e.target.value)} autoFocus />
        </label>
        <FormError error={action.error} />
        <DialogFooter
          onCancel={onClose}
          submitLabel={intl.formatMessage({
            id: 'groups.join.submit',
            defaultMessage: 'Join',
            description: 'Submit button of the dialog asking for a group’s password',
          })}
          disabled={!password || action.busy}
        />
      </form>
    </Dialog>
  );
}

function CreateGroupDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const createGroup = useStore((s) => s.createGroup);
  const action = useAction(createGroup);
  const [name, setName] = useState('');
  // Private unless the creator chooses to list it: listing a group is the step to think about.
  const [isPublic, setPublic] = useState(false);
  const [password, setPassword] = useState('');
  const [avatar, setAvatar] = useState<string | null>(null);
  const [avatarError, setAvatarError] = useState<string | null>(null);
  const intl = useIntl();
  const publicLabel = intl.formatMessage({
    id: 'groups.create.public',
    defaultMessage: 'Public',
    description: 'Checkbox in the New group dialog: list the group under Discover',
  });
  return (
    <Dialog
      title={intl.formatMessage({
        id: 'groups.create.title',
        defaultMessage: 'New group',
        description: 'Title of the dialog that creates a group',
      })}
      open={open}
      onClose={onClose}
    >
      <form
        className="stack"
        onSubmit={async (e) => {
          e.preventDefault();
          const r = await action.run({
            name: name.trim(),
            isPublic,
            ...(password ? { password } : {}),
            ...(avatar ? { avatar } : {}),
          });
          if (r.ok) {
            setName('');
            setPassword('');
            setAvatar(null);
            onClose();
          }
        }}
      >
        <div className="avatar-picker">
          <Avatar name={name || '?'} seed={name || 'new'} image={avatar} size={56} square />
          <label className="btn btn-secondary btn-sm file-btn">
            <input
              type="file"
              accept="image/png,image/jpeg,image/webp,image/gif"
              aria-label={intl.formatMessage({
                id: 'groups.create.picture',
                defaultMessage: 'Group picture',
                description: 'Accessible name of the file input that picks the new group’s picture',
              })}
              onChange={async (e) => {
                const f = e.target.files?.[0];
                setAvatarError(null);
                if (!f) return;
                try {
                  setAvatar(await readAvatar(f));
                } catch (err) {
                  setAvatarError(avatarProblem(intl, err));
                }
              }}
            />
            <FormattedMessage
              id="groups.create.choosePicture"
              defaultMessage="Choose picture"
              description="Button that picks the new group’s picture"
            />
          </label>
          {avatar && (
            <button type="button" className="btn btn-link btn-sm" onClick={() => setAvatar(null)}>
              <FormattedMessage
                id="groups.create.removePicture"
                defaultMessage="Remove"
                description="Button that removes the picked picture of the new group"
              />
            </button>
          )}
        </div>
        <FormError error={avatarError} />
        <label className="field">
          <span className="field-label">
            <FormattedMessage
              id="groups.create.name"
              defaultMessage="Group name"
              description="Field label in the New group dialog"
            />
          </span>
          <input
            value={name}
            onChange={(e) => setName(e.target.value)}
            maxLength={80}
            autoFocus
            placeholder={intl.formatMessage({
              id: 'groups.create.namePlaceholder',
              defaultMessage: 'Weekend hikers',
              description: 'Example group name in the Group name field',
            })}
          />
        </label>
        <label className="check">
          <input
            type="checkbox"
            aria-label={publicLabel}
            aria-describedby="public-hint"
            checked={isPublic}
            onChange={(e) => setPublic(e.target.checked)}
          />
          <span>
            {publicLabel}
            <span className="field-hint block" id="public-hint">
              <FormattedMessage
                id="groups.create.publicHint"
                defaultMessage="Listed under Discover; anyone on the relay can join."
                description="Hint under the Public checkbox; “Discover” is the tab of public groups"
              />
            </span>
          </span>
        </label>
        <label className="field">
          <span className="field-label">
            <FormattedMessage
              id="groups.create.password"
              defaultMessage="Join password (optional)"
              description="Field label in the New group dialog: a password people must give to join"
            />
          </span>
          <input
            type="password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            autoComplete="new-password"
            maxLength={128}
          />
        </label>
        <FormError error={action.error} />
        <DialogFooter
          onCancel={onClose}
          submitLabel={intl.formatMessage({
            id: 'groups.create.submit',
            defaultMessage: 'Create group',
            description: 'Submit button of the New group dialog',
          })}
          disabled={!name.trim() || action.busy}
        />
      </form>
    </Dialog>
  );
}
