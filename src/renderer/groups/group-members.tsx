import { useEffect, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { GroupInfo } from '../../shared/domain.js';
import { parseRecipient, recipientText } from '../../shared/recipient.js';
import { Avatar } from '../people/avatar.js';
import { VerifiedBadge } from '../people/badges.js';
import { FormError } from '../components/form-error.js';
import { displayName } from '../i18n/format.js';
import { Person } from '../people/person.js';
import { useStore } from '../store.js';
import { useAction } from '../shell/use-action.js';
import { RecipientField } from '../people/recipient-field.js';
import { RemoveMemberDialog } from './remove-member-dialog.js';

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
  const makeAdmin = useStore((s) => s.makeAdmin);
  const revokeAdmin = useStore((s) => s.revokeAdmin);
  const [removing, setRemoving] = useState<string | null>(null);
  const admin = useAction((address: string, on: boolean) =>
    on ? makeAdmin(g.id, address) : revokeAdmin(g.id, address),
  );
  const canManage = g.canManage ?? g.isCreator;
  const creator = g.creatorAddress?.toLowerCase();
  const admins = new Set((g.admins ?? []).map((a) => a.toLowerCase()));
  const nameOf = (a: string) => displayName(known[a.toLowerCase()]?.handle, a);
  const intl = useIntl();
  const members = intl.formatMessage({
    id: 'groups.members.title',
    defaultMessage: 'Members',
    description: 'Heading of the member list on a group’s page, and the list’s name',
  });
  return (
    <section className="section" aria-labelledby="members-title">
      <h3 id="members-title">{members}</h3>
      <ul className="plain-list" aria-label={members}>
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
              {addr === creator && (
                <span className="pill">
                  <FormattedMessage
                    id="groups.members.creator"
                    defaultMessage="Creator"
                    description="Tag beside the member who created the group"
                  />
                </span>
              )}
              {isAdmin && (
                <span className="pill pill-admin">
                  <FormattedMessage
                    id="groups.members.admin"
                    defaultMessage="Admin"
                    description="Tag beside a member who is an admin of the group"
                  />
                </span>
              )}
              {addr === me && (
                <span className="pill pill-plain">
                  <FormattedMessage
                    id="groups.members.you"
                    defaultMessage="You"
                    description="Tag beside oneself in a group’s member list"
                  />
                </span>
              )}
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
                      <FormattedMessage
                        id="groups.members.removeAdmin"
                        defaultMessage="Remove admin<hidden> rights from {name}</hidden>"
                        description="Button beside an admin (creator only). The part in <hidden> is read out, not shown; keep the visible words at the start and inside the read-out name. {name} is the member’s handle or short address"
                        values={{ name: nameOf(a), hidden: (chunks) => <span className="sr-only">{chunks}</span> }}
                      />
                    ) : (
                      <FormattedMessage
                        id="groups.members.makeAdmin"
                        defaultMessage="Make<hidden> {name} an</hidden> admin"
                        description="Button beside a member (creator only). The part in <hidden> is read out, not shown: the visible words (“Make admin”) must stay in the read-out sentence. {name} is the member’s handle or short address"
                        values={{ name: nameOf(a), hidden: (chunks) => <span className="sr-only">{chunks}</span> }}
                      />
                    )}
                  </button>
                )}
                {mayRemove && (
                  <button
                    type="button"
                    className="btn btn-link btn-sm danger"
                    onClick={() => setRemoving(addr)}
                    aria-label={intl.formatMessage(
                      {
                        id: 'groups.members.removeFromGroup',
                        defaultMessage: 'Remove {name} from the group',
                        description:
                          'Accessible name of the Remove button beside a member; {name} is the member’s handle or short address',
                      },
                      { name: nameOf(a) },
                    )}
                  >
                    <FormattedMessage
                      id="groups.members.removeButton"
                      defaultMessage="Remove"
                      description="Button beside a member that removes them from the group"
                    />
                  </button>
                )}
              </span>
            </li>
          );
        })}
      </ul>
      <FormError error={admin.error} />
      {removing && (
        <RemoveMemberDialog
          groupId={g.id}
          groupName={g.name}
          address={removing}
          name={nameOf(removing)}
          onClose={() => setRemoving(null)}
        />
      )}
      {canManage && (g.invited?.length ?? 0) > 0 && <Invited g={g} nameOf={nameOf} />}
      {canManage && <AddMember g={g} nameOf={nameOf} />}
    </section>
  );
}

function Invited({ g, nameOf }: { g: GroupInfo; nameOf: (a: string) => string }) {
  const removeMember = useStore((s) => s.removeMember);
  const withdraw = useAction(removeMember);
  const intl = useIntl();
  return (
    <>
      <h4 className="section-label invited-title">
        <FormattedMessage
          id="groups.invited.title"
          defaultMessage="Invited, not yet joined"
          description="Heading of the people invited into the group who have not accepted"
        />
      </h4>
      <ul
        className="plain-list"
        aria-label={intl.formatMessage({
          id: 'groups.invited.label',
          defaultMessage: 'Invited',
          description: 'Accessible name of the list of invited people',
        })}
      >
        {g.invited!.map((a) => (
          <li key={a} className="member-row invited-row">
            <Avatar name={nameOf(a)} seed={a} size={28} />
            <span className="member-name">
              <Person address={a} />
            </span>
            <span className="pill pill-plain">
              <FormattedMessage
                id="groups.invited.tag"
                defaultMessage="Invited"
                description="Tag beside an invited person who has not joined yet"
              />
            </span>
            <button
              type="button"
              className="btn btn-link btn-sm push"
              disabled={withdraw.busy}
              onClick={() => void withdraw.run(g.id, a)}
              aria-label={intl.formatMessage(
                {
                  id: 'groups.invited.withdrawLabel',
                  defaultMessage: 'Withdraw invitation to {name}',
                  description:
                    'Accessible name of the Withdraw button; {name} is the invited person’s handle or short address',
                },
                { name: nameOf(a) },
              )}
            >
              <FormattedMessage
                id="groups.invited.withdraw"
                defaultMessage="Withdraw"
                description="Button that takes back an invitation to the group"
              />
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
  const [outcome, setOutcome] = useState<{ invited: boolean; who: string } | null>(null);
  const intl = useIntl();
  return (
    <>
      <form
        className="inline-form"
        onSubmit={async (e) => {
          e.preventDefault();
          setOutcome(null);
          const r = parseRecipient(member);
          if ('problem' in r) return add.setError(r);
          const who = r.kind === 'address' ? nameOf(r.address) : recipientText(r);
          const res = await add.run(g.id, recipientText(r));
          if (!res.ok) return;
          setMember('');
          // A stranger is only asked: saying "added" would promise messages they will not get.
          setOutcome({ invited: res.value === 'invited', who });
        }}
      >
        <RecipientField
          label={intl.formatMessage({
            id: 'groups.add.label',
            defaultMessage: 'Add a member',
            description: 'Field label under the member list: a handle or address to add',
          })}
          className="field grow"
          value={member}
          onChange={(v) => {
            setMember(v);
            add.setError(null);
          }}
          placeholder={intl.formatMessage({
            id: 'groups.add.placeholder',
            defaultMessage: '@handle or 0x address',
            description: 'Placeholder of the Add a member field; keep “@” and “0x”',
          })}
          invalid={!!add.error}
        />
        <button type="submit" className="btn btn-secondary" disabled={!member.trim() || add.busy}>
          <FormattedMessage
            id="groups.add.submit"
            defaultMessage="Add"
            description="Button that adds the member typed in the field"
          />
        </button>
      </form>
      <FormError error={add.error} />
      {outcome && (
        <p className="subtle small add-outcome" role="status">
          {outcome.invited ? (
            <FormattedMessage
              id="groups.add.invited"
              defaultMessage="Invited {name}. They join once they accept; until then nothing of the group reaches them."
              description="After adding someone who does not know the adder yet: they were only invited; {name} is their handle or short address"
              values={{ name: <bdi dir="ltr">{outcome.who}</bdi> }}
            />
          ) : (
            <FormattedMessage
              id="groups.add.added"
              defaultMessage="Added {name} to the group."
              description="After adding a member; {name} is their handle or short address"
              values={{ name: <bdi dir="ltr">{outcome.who}</bdi> }}
            />
          )}
        </p>
      )}
    </>
  );
}
