import { useEffect, useState } from 'react';
import type { GroupInfo } from '../../shared/domain.js';
import { Avatar } from '../components/avatar.js';
import { VerifiedBadge } from '../components/badges.js';
import { Dialog } from '../components/dialog.js';
import { EmptyState } from '../components/empty-state.js';
import { Icon } from '../components/icon.js';
import { FormError } from '../components/form-error.js';
import { DialogFooter } from '../components/dialog-footer.js';
import { SecretKeyList } from '../components/secret-key-list.js';
import { CopyButton } from '../components/copy-button.js';
import { listTime } from '../format.js';
import { useStore } from '../store/store.js';
import { useAction } from '../use-action.js';
import { readAvatar } from './avatar-file.js';
import { GroupMembers } from './group-members.js';

const GROUPS_REFRESH_MS = 30_000;

export function Groups() {
  const groups = useStore((s) => s.groups);
  const loadGroups = useStore((s) => s.loadGroups);
  const selectGroup = useStore((s) => s.selectGroup);
  const showToast = useStore((s) => s.showToast);
  const [tab, setTab] = useState<'mine' | 'discover'>('mine');
  const [createOpen, setCreateOpen] = useState(false);

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
  return (
    <div className="split">
      <section className="pane list-pane" aria-label="Group list">
        <header className="pane-header">
          <h1>Groups</h1>
          <button type="button" className="btn btn-primary btn-sm" onClick={() => setCreateOpen(true)}>
            <Icon name="plus" size={15} /> New group
          </button>
        </header>
        <div className="tabs" role="tablist" aria-label="Groups">
          <button type="button" role="tab" aria-selected={tab === 'mine'} className={tab === 'mine' ? 'tab active' : 'tab'} onClick={() => chooseTab('mine')}>
            My groups
          </button>
          <button type="button" role="tab" aria-selected={tab === 'discover'} className={tab === 'discover' ? 'tab active' : 'tab'} onClick={() => chooseTab('discover')}>
            Discover
          </button>
        </div>
        {/* The panel wraps the list: an <li> must sit in a list, so the <ul> cannot be the tabpanel itself. */}
        <div className="tab-panel" role="tabpanel" aria-label={tab === 'mine' ? 'My groups' : 'Public groups'}>
          <ul className="conv-list">
            {groups.loaded && list.length === 0 && <li className="list-note">{tab === 'mine' ? "You're not in any group yet. Create one, or join a public group under Discover." : 'No public groups on this relay yet.'}</li>}
            {list.map((g) => (
              <li key={g.id}>
                <button type="button" className={groups.selectedId === g.id ? 'conv active' : 'conv'} aria-current={groups.selectedId === g.id ? 'true' : undefined} onClick={() => void selectGroup(g.id)}>
                  <Avatar name={g.name} seed={g.id} image={g.avatar} size={40} square />
                  <span className="conv-body">
                    <span className="conv-top">
                      <span className="conv-title">
                        <span className="truncate">{g.name}</span>
                        {g.verified && <VerifiedBadge />}
                      </span>
                      {g.hasPassword && <Icon name="lock" size={13} className="muted-icon" />}
                    </span>
                    <span className="conv-bottom">
                      <span className="conv-preview">
                        {g.memberCount} member{g.memberCount === 1 ? '' : 's'} · {g.isPublic ? 'Public' : 'Private'}
                      </span>
                    </span>
                  </span>
                </button>
              </li>
            ))}
          </ul>
        </div>
      </section>
      <section className="pane detail-pane" aria-label="Group details">
        {groups.detail ? (
          <GroupDetail g={groups.detail} />
        ) : (
          <EmptyState
            icon="users"
            title="Groups"
            action={
              <button type="button" className="btn btn-primary" onClick={() => setCreateOpen(true)}>
                <Icon name="plus" /> Create a group
              </button>
            }
          >
            Talk with several people at once. Every message is sealed separately for each member's devices.
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
            {g.name} {g.verified && <VerifiedBadge />}
          </h2>
          <p className="subtle">
            {g.isPublic ? 'Public group' : 'Private group'}
            {g.hasPassword && ' · Password protected'} · {g.memberCount} member{g.memberCount === 1 ? '' : 's'} · Created {listTime(g.createdAt)}
          </p>
        </div>
      </header>
      <FormError error={act.error} />
      <div className="row">
        {g.isMember ? (
          <>
            <button type="button" className="btn btn-primary" onClick={() => void act.run('open')} disabled={act.busy}>
              <Icon name="chat" size={16} /> Open chat
            </button>
            {!(g.isCreator && g.memberCount > 1) && (
              <button type="button" className="btn btn-danger-ghost" onClick={() => void act.run('leave')} disabled={act.busy}>
                Leave group
              </button>
            )}
          </>
        ) : (
          <button type="button" className="btn btn-primary" onClick={() => (g.hasPassword ? setJoinOpen(true) : void act.run('join'))} disabled={act.busy}>
            {g.hasPassword && <Icon name="lock" size={15} />} Join group
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
  return (
    <section className="section" aria-labelledby="tokens-title">
      <h3 id="tokens-title">Bot tokens</h3>
      <p className="subtle small">A bot token lets a script post into this group. Its posts are marked as a bot's.</p>
      <div className="row tight">
        <span className="small subtle">Group ID</span>
        <code className="inline-code" aria-label="Group ID" data-copy-source={g.id}>
          {g.id}
        </code>
        <CopyButton text={g.id} label="Copy group ID" />
      </div>
      <SecretKeyList
        key={g.id}
        what="bot token"
        listLabel="Bot tokens"
        icon="bot"
        items={tokens.map((t) => ({ ...t, revocable: true }))}
        nameLabel="Bot name"
        placeholder="deploy-notifier"
        nameRequired
        mintLabel="Mint token"
        mintIcon="key"
        emptyText="No bot tokens yet."
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
  return (
    <Dialog title={`Join ${g.name}`} open={open} onClose={onClose}>
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
        <p className="subtle">This group asks for a password. Get it from someone in the group.</p>
        <label className="field">
          <span className="field-label">Group password</span>
          <input type="password" value={password} onChange={(e) => setPassword(e.target.value)} autoFocus />
        </label>
        <FormError error={action.error} />
        <DialogFooter onCancel={onClose} submitLabel="Join" disabled={!password || action.busy} />
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
  return (
    <Dialog title="New group" open={open} onClose={onClose}>
      <form
        className="stack"
        onSubmit={async (e) => {
          e.preventDefault();
          const r = await action.run({ name: name.trim(), isPublic, ...(password ? { password } : {}), ...(avatar ? { avatar } : {}) });
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
              aria-label="Group picture"
              onChange={async (e) => {
                const f = e.target.files?.[0];
                setAvatarError(null);
                if (!f) return;
                try {
                  setAvatar(await readAvatar(f));
                } catch (err) {
                  setAvatarError((err as Error).message);
                }
              }}
            />
            Choose picture
          </label>
          {avatar && (
            <button type="button" className="btn btn-link btn-sm" onClick={() => setAvatar(null)}>
              Remove
            </button>
          )}
        </div>
        <FormError error={avatarError} />
        <label className="field">
          <span className="field-label">Group name</span>
          <input value={name} onChange={(e) => setName(e.target.value)} maxLength={80} autoFocus placeholder="Weekend hikers" />
        </label>
        <label className="check">
          <input type="checkbox" aria-label="Public" aria-describedby="public-hint" checked={isPublic} onChange={(e) => setPublic(e.target.checked)} />
          <span>
            Public
            <span className="field-hint block" id="public-hint">Listed under Discover; anyone on the relay can join.</span>
          </span>
        </label>
        <label className="field">
          <span className="field-label">Join password (optional)</span>
          <input type="password" value={password} onChange={(e) => setPassword(e.target.value)} autoComplete="new-password" maxLength={128} />
        </label>
        <FormError error={action.error} />
        <DialogFooter onCancel={onClose} submitLabel="Create group" disabled={!name.trim() || action.busy} />
      </form>
    </Dialog>
  );
}
