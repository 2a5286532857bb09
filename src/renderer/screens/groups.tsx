import { useEffect, useState } from 'react';
import type { GroupInfo } from '../../shared/domain.js';
import { Avatar } from '../components/avatar.js';
import { VerifiedBadge } from '../components/badges.js';
import { Dialog } from '../components/dialog.js';
import { EmptyState } from '../components/empty-state.js';
import { Icon } from '../components/icon.js';
import { SecretReveal } from '../components/secret-reveal.js';
import { CopyButton } from '../components/copy-button.js';
import { listTime, shortAddress } from '../format.js';
import { resolveHandles } from '../store/conversations-slice.js';
import { parseRecipient } from '../../shared/recipient.js';
import { useStore } from '../store/store.js';
import { useAction } from '../use-action.js';
import { readAvatar } from './avatar-file.js';

const GROUPS_REFRESH_MS = 30_000;

export function Groups() {
  const groups = useStore((s) => s.groups);
  const requested = useStore((s) => s.groupsRequested);
  const selected = useStore((s) => s.groupSelected);
  const toast = useStore((s) => s.toastShown);
  const [tab, setTab] = useState<'mine' | 'discover'>('mine');
  const [createOpen, setCreateOpen] = useState(false);

  useEffect(() => {
    requested().catch((e: Error) => toast('error', e.message));
  }, [requested, toast]);

  // Groups others create appear without leaving the screen: on every tab switch, and every
  // half minute while it is open (quietly: a failed refresh keeps the list shown).
  useEffect(() => {
    const t = setInterval(() => void requested().catch(() => undefined), GROUPS_REFRESH_MS);
    return () => clearInterval(t);
  }, [requested]);
  const chooseTab = (next: 'mine' | 'discover') => {
    setTab(next);
    requested().catch((e: Error) => toast('error', e.message));
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
        <ul className="conv-list" role="tabpanel" aria-label={tab === 'mine' ? 'My groups' : 'Public groups'}>
          {groups.loaded && list.length === 0 && <li className="list-note">{tab === 'mine' ? "You're not in any group yet. Create one, or join a public group under Discover." : 'No public groups on this relay yet.'}</li>}
          {list.map((g) => (
            <li key={g.id}>
              <button type="button" className={groups.selectedId === g.id ? 'conv active' : 'conv'} aria-current={groups.selectedId === g.id ? 'true' : undefined} onClick={() => void selected(g.id)} aria-label={g.name}>
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
  const chatOpened = useStore((s) => s.groupChatOpened);
  const left = useStore((s) => s.groupLeft);
  const joined = useStore((s) => s.groupJoined);
  const me = useStore((s) => s.status?.address?.toLowerCase());
  const [joinOpen, setJoinOpen] = useState(false);
  const act = useAction(async (what: 'open' | 'leave' | 'join') => {
    if (what === 'open') await chatOpened(g.id);
    else if (what === 'leave') await left(g.id);
    else await joined(g.id);
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
      {act.error && <p className="form-error" role="alert">{act.error}</p>}
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
      {g.isMember && g.members && <Members g={g} me={me ?? ''} />}
      {g.isCreator && <BotTokens g={g} />}
      <JoinDialog g={g} open={joinOpen} onClose={() => setJoinOpen(false)} />
    </div>
  );
}

function Members({ g, me }: { g: GroupInfo; me: string }) {
  const known = useStore((s) => s.resolvedHandles);
  useEffect(() => {
    void resolveHandles(g.members ?? [], useStore.getState);
  }, [g.members]);
  const added = useStore((s) => s.memberAdded);
  const removed = useStore((s) => s.memberRemoved);
  const [member, setMember] = useState('');
  const add = useAction(added);
  const remove = useAction(removed);
  return (
    <section className="section" aria-labelledby="members-title">
      <h3 id="members-title">Members</h3>
      <ul className="plain-list" aria-label="Members">
        {g.members!.map((a) => (
          <li key={a} className="member-row">
            <Avatar name={known[a.toLowerCase()]?.handle ?? a} seed={a} size={28} />
            {known[a.toLowerCase()] ? (
              <span className="member-name">
                @{known[a.toLowerCase()].handle} {known[a.toLowerCase()].verified && <VerifiedBadge />} <span className="subtle mono small">{shortAddress(a)}</span>
              </span>
            ) : (
              <span className="mono">{shortAddress(a)}</span>
            )}
            {a.toLowerCase() === g.creatorAddress?.toLowerCase() && <span className="pill">Creator</span>}
            {a.toLowerCase() === me && <span className="pill">You</span>}
            {g.isCreator && a.toLowerCase() !== me && (
              <button type="button" className="btn btn-link btn-sm push" onClick={() => void remove.run(g.id, a)} aria-label={`Remove ${a}`}>
                Remove
              </button>
            )}
          </li>
        ))}
      </ul>
      {remove.error && <p className="form-error" role="alert">{remove.error}</p>}
      {g.isCreator && (
        <form
          className="inline-form"
          onSubmit={async (e) => {
            e.preventDefault();
            const r = parseRecipient(member);
            if ('problem' in r) return add.setError(r.problem);
            if ((await add.run(g.id, r.kind === 'address' ? r.address : `@${r.handle}`)).ok) setMember('');
          }}
        >
          <label className="field grow">
            <span className="field-label">Add a member</span>
            <input
              value={member}
              onChange={(e) => {
                setMember(e.target.value);
                add.setError(null);
              }}
              placeholder="@handle or 0x address"
              spellCheck={false}
              autoCapitalize="off"
              aria-invalid={add.error ? true : undefined}
            />
          </label>
          <button type="submit" className="btn btn-secondary" disabled={!member.trim() || add.busy}>
            Add
          </button>
        </form>
      )}
      {add.error && <p className="form-error" role="alert">{add.error}</p>}
    </section>
  );
}

function BotTokens({ g }: { g: GroupInfo }) {
  const tokens = useStore((s) => s.groups.tokens);
  const minted = useStore((s) => s.botTokenMinted);
  const revoked = useStore((s) => s.botTokenRevoked);
  const [name, setName] = useState('');
  const [secret, setSecret] = useState<string | null>(null);
  const mint = useAction(minted);
  const revoke = useAction(revoked);
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
      {secret && <SecretReveal secret={secret} what="bot token" />}
      <ul className="plain-list" aria-label="Bot tokens">
        {tokens.length === 0 && <li className="subtle small">No bot tokens yet.</li>}
        {tokens.map((t) => (
          <li key={t.id} className="token-row">
            <Icon name="bot" size={16} />
            <span className="token-name">{t.name}</span>
            <code className="inline-code">{t.prefix}…</code>
            <span className="subtle small">{t.revokedAt ? `Revoked ${listTime(t.revokedAt)}` : `Created ${listTime(t.createdAt)}`}</span>
            {!t.revokedAt && (
              <button type="button" className="btn btn-link btn-sm push danger" onClick={() => void revoke.run(g.id, t.id)} aria-label={`Revoke ${t.name}`}>
                Revoke
              </button>
            )}
          </li>
        ))}
      </ul>
      {revoke.error && <p className="form-error" role="alert">{revoke.error}</p>}
      <form
        className="inline-form"
        onSubmit={async (e) => {
          e.preventDefault();
          const r = await mint.run(g.id, name.trim());
          if (r.ok) {
            setSecret(r.value);
            setName('');
          }
        }}
      >
        <label className="field grow">
          <span className="field-label">Bot name</span>
          <input value={name} onChange={(e) => setName(e.target.value)} placeholder="deploy-notifier" maxLength={64} />
        </label>
        <button type="submit" className="btn btn-secondary" disabled={!name.trim() || mint.busy}>
          <Icon name="key" size={15} /> Mint token
        </button>
      </form>
      {mint.error && <p className="form-error" role="alert">{mint.error}</p>}
    </section>
  );
}

function JoinDialog({ g, open, onClose }: { g: GroupInfo; open: boolean; onClose: () => void }) {
  const joined = useStore((s) => s.groupJoined);
  const action = useAction(joined);
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
        {action.error && <p className="form-error" role="alert">{action.error}</p>}
        <div className="row end">
          <button type="button" className="btn btn-ghost" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="btn btn-primary" disabled={!password || action.busy}>
            Join
          </button>
        </div>
      </form>
    </Dialog>
  );
}

function CreateGroupDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const created = useStore((s) => s.groupCreated);
  const action = useAction(created);
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
        {avatarError && <p className="form-error" role="alert">{avatarError}</p>}
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
        {action.error && <p className="form-error" role="alert">{action.error}</p>}
        <div className="row end">
          <button type="button" className="btn btn-ghost" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="btn btn-primary" disabled={!name.trim() || action.busy}>
            Create group
          </button>
        </div>
      </form>
    </Dialog>
  );
}
