import { useEffect, useState } from 'react';
import type { GroupInfo } from '../../shared/domain.js';
import { parseRecipient, recipientText } from '../../shared/recipient.js';
import { Avatar } from '../components/avatar.js';
import { VerifiedBadge } from '../components/badges.js';
import { FormError } from '../components/form-error.js';
import { displayName } from '../format.js';
import { Person } from '../components/person.js';
import { useStore } from '../store/store.js';
import { useAction } from '../use-action.js';
import { RecipientField } from '../components/recipient-field.js';

/**
 * A group's members, its open invitations and adding someone. What each person may do
 * follows the relay's rules, so that no button leads to a refusal: the creator names and
 * unnames admins; the creator and admins add, remove and invite, but an admin may not
 * remove the creator nor another admin.
 */
export function GroupMembers({ g, me }: { g: GroupInfo; me: string }) {
  const known = useStore((s) => s.handles);
  const wantHandles = useStore((s) => s.wantHandles);
  useEffect(() => {
    void wantHandles([...(g.members ?? []), ...(g.invited ?? [])]);
  }, [wantHandles, g.members, g.invited]);
  const removeMember = useStore((s) => s.removeMember);
  const makeAdmin = useStore((s) => s.makeAdmin);
  const revokeAdmin = useStore((s) => s.revokeAdmin);
  const remove = useAction(removeMember);
  const admin = useAction((address: string, on: boolean) => (on ? makeAdmin(g.id, address) : revokeAdmin(g.id, address)));
  const canManage = g.canManage ?? g.isCreator;
  const creator = g.creatorAddress?.toLowerCase();
  const admins = new Set((g.admins ?? []).map((a) => a.toLowerCase()));
  const nameOf = (a: string) => displayName(known[a.toLowerCase()]?.handle, a);
  return (
    <section className="section" aria-labelledby="members-title">
      <h3 id="members-title">Members</h3>
      <ul className="plain-list" aria-label="Members">
        {g.members!.map((a) => {
          const addr = a.toLowerCase();
          const isAdmin = admins.has(addr);
          const mayRemove = canManage && addr !== me && addr !== creator && (g.isCreator || !isAdmin);
          return (
            <li key={a} className="member-row">
              <Avatar name={known[addr]?.handle ?? a} seed={a} size={28} />
              <span className="member-name">
                <Person address={a} handle={known[addr]?.handle} /> {known[addr]?.verified && <VerifiedBadge />}
              </span>
              {addr === creator && <span className="pill">Creator</span>}
              {isAdmin && <span className="pill pill-admin">Admin</span>}
              {addr === me && <span className="pill pill-plain">You</span>}
              <span className="member-actions push">
                {g.isCreator && addr !== me && (
                  <button
                    type="button"
                    className="btn btn-link btn-sm"
                    disabled={admin.busy}
                    onClick={() => void admin.run(a, !isAdmin)}
                  >
                    {/* the name read out holds the words shown (axe: label-content-name-mismatch) */}
                    {isAdmin ? (
                      <>
                        Remove admin<span className="sr-only"> rights from {nameOf(a)}</span>
                      </>
                    ) : (
                      <>
                        Make<span className="sr-only"> {nameOf(a)} an</span> admin
                      </>
                    )}
                  </button>
                )}
                {mayRemove && (
                  <button type="button" className="btn btn-link btn-sm danger" onClick={() => void remove.run(g.id, a)} aria-label={`Remove ${a}`}>
                    Remove
                  </button>
                )}
              </span>
            </li>
          );
        })}
      </ul>
      <FormError error={remove.error ?? admin.error} />
      {canManage && (g.invited?.length ?? 0) > 0 && <Invited g={g} nameOf={nameOf} />}
      {canManage && <AddMember g={g} nameOf={nameOf} />}
    </section>
  );
}

function Invited({ g, nameOf }: { g: GroupInfo; nameOf: (a: string) => string }) {
  const removeMember = useStore((s) => s.removeMember);
  const withdraw = useAction(removeMember);
  return (
    <>
      <h4 className="section-label invited-title">Invited, not yet joined</h4>
      <ul className="plain-list" aria-label="Invited">
        {g.invited!.map((a) => (
          <li key={a} className="member-row invited-row">
            <Avatar name={nameOf(a)} seed={a} size={28} />
            <span className="member-name">
              <Person address={a} />
            </span>
            <span className="pill pill-plain">Invited</span>
            <button type="button" className="btn btn-link btn-sm push" disabled={withdraw.busy} onClick={() => void withdraw.run(g.id, a)} aria-label={`Withdraw invitation to ${nameOf(a)}`}>
              Withdraw
            </button>
          </li>
        ))}
      </ul>
      <FormError error={withdraw.error} />
    </>
  );
}

function AddMember({ g, nameOf }: { g: GroupInfo; nameOf: (a: string) => string }) {
  const addMember = useStore((s) => s.addMember);
  const add = useAction(addMember);
  const [member, setMember] = useState('');
  const [outcome, setOutcome] = useState<string | null>(null);
  return (
    <>
      <form
        className="inline-form"
        onSubmit={async (e) => {
          e.preventDefault();
          setOutcome(null);
          const r = parseRecipient(member);
          if ('problem' in r) return add.setError(r.problem);
          const who = r.kind === 'address' ? nameOf(r.address) : recipientText(r);
          const res = await add.run(g.id, recipientText(r));
          if (!res.ok) return;
          setMember('');
          // A stranger is only asked: saying "added" would promise messages they will not get.
          setOutcome(res.value === 'invited' ? `Invited ${who}. They join once they accept; until then nothing of the group reaches them.` : `Added ${who} to the group.`);
        }}
      >
        <RecipientField
          label="Add a member"
          className="field grow"
          value={member}
          onChange={(v) => {
            setMember(v);
            add.setError(null);
          }}
          placeholder="@handle or 0x address"
          invalid={!!add.error}
        />
        <button type="submit" className="btn btn-secondary" disabled={!member.trim() || add.busy}>
          Add
        </button>
      </form>
      <FormError error={add.error} />
      {outcome && (
        <p className="subtle small add-outcome" role="status">
          {outcome}
        </p>
      )}
    </>
  );
}
