import { useEffect, useRef, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { DirectoryHit, Relationship } from '../../shared/domain.js';
import { Avatar } from '../people/avatar.js';
import { VerifiedBadge } from '../people/badges.js';
import { Dialog } from '../components/dialog.js';
import { DialogFooter } from '../components/dialog-footer.js';
import { EmptyState } from '../components/empty-state.js';
import { FormError } from '../components/form-error.js';
import { Icon } from '../components/icon.js';
import { requestOutcome } from '../i18n/format.js';
import { Person } from '../people/person.js';
import { relationshipOf } from '../people/relationships-slice.js';
import { useStore } from '../store.js';
import { useAction } from '../shell/use-action.js';

export function Directory() {
  const directory = useStore((s) => s.directory);
  const searchDirectory = useStore((s) => s.searchDirectory);
  const [q, setQ] = useState(directory.query);
  const [requestTo, setRequestTo] = useState<DirectoryHit | null>(null);
  const first = useRef(true);
  const intl = useIntl();

  useEffect(() => {
    // Search as the user types, a beat after the last key.
    const t = setTimeout(() => void searchDirectory(q), first.current ? 0 : 180);
    first.current = false;
    return () => clearTimeout(t);
  }, [q, searchDirectory]);

  return (
    <div className="page">
      <header className="page-header">
        <div>
          <h1>
            <FormattedMessage
              id="directory.title"
              defaultMessage="Directory"
              description="Heading of the Directory screen"
            />
          </h1>
          <p className="subtle">
            <FormattedMessage
              id="directory.intro"
              defaultMessage="Find people on your relay by handle or address."
              description="Text under the Directory heading"
            />
          </p>
        </div>
      </header>
      <div className="search-big">
        <Icon name="search" size={18} />
        <input
          type="search"
          aria-label={intl.formatMessage({
            id: 'directory.search.label',
            defaultMessage: 'Search the directory',
            description: 'Accessible name of the directory’s search box',
          })}
          placeholder={intl.formatMessage({
            id: 'directory.search.placeholder',
            defaultMessage: 'Search by handle or address',
            description: 'Placeholder of the directory’s search box',
          })}
          value={q}
          onChange={(e) => setQ(e.target.value)}
          autoFocus
          spellCheck={false}
          autoCapitalize="off"
        />
        {directory.loading && (
          <span
            className="spinner"
            aria-label={intl.formatMessage({
              id: 'directory.search.busy',
              defaultMessage: 'Searching',
              description: 'Accessible name of the spinner while the directory search runs',
            })}
          />
        )}
      </div>
      <FormError error={directory.error} />
      {!directory.loading && directory.hits.length === 0 && !directory.error ? (
        <EmptyState
          icon="search"
          title={
            q.trim()
              ? intl.formatMessage(
                  {
                    id: 'directory.empty.noMatch',
                    defaultMessage: 'Nobody matches “{query}”',
                    description: 'Title when the directory search found nobody; {query} is what was typed',
                  },
                  { query: q.trim() },
                )
              : intl.formatMessage({
                  id: 'directory.empty.title',
                  defaultMessage: 'Nobody here yet',
                  description: 'Title when the relay’s directory is empty',
                })
          }
        >
          {q.trim() ? (
            <FormattedMessage
              id="directory.empty.noMatchHint"
              defaultMessage="Check the spelling, or paste their full wallet address."
              description="Hint when the directory search found nobody"
            />
          ) : (
            <FormattedMessage
              id="directory.empty.hint"
              defaultMessage="People appear here once they claim a handle on this relay."
              description="Hint when the relay’s directory is empty"
            />
          )}
        </EmptyState>
      ) : (
        <ul
          className="card-list"
          aria-label={intl.formatMessage({
            id: 'directory.results.label',
            defaultMessage: 'Directory results',
            description: 'Accessible name of the list of people found',
          })}
        >
          {directory.hits.map((h) => (
            <li key={h.address}>
              <DirectoryRow hit={h} onRequest={() => setRequestTo(h)} />
            </li>
          ))}
        </ul>
      )}
      <RequestDialog hit={requestTo} onClose={() => setRequestTo(null)} />
    </div>
  );
}

/** One person found: what may be done with them follows who they are to me (relationshipOf). */
function DirectoryRow({ hit, onRequest }: { hit: DirectoryHit; onRequest: () => void }) {
  const relationship = useStore((s) => relationshipOf(s, hit.address, hit.relationship));
  const handle = `@${hit.handle}`;
  return (
    <article className="card person-row" aria-label={handle}>
      <Avatar name={hit.handle} seed={hit.address} size={40} />
      <div className="person-text">
        <span className="person-name">
          <Person address={hit.address} handle={hit.handle} /> {hit.verified && <VerifiedBadge />}{' '}
          <RelationshipTag relationship={relationship} />
        </span>
      </div>
      <DirectoryActions hit={hit} relationship={relationship} onRequest={onRequest} />
    </article>
  );
}

function RelationshipTag({ relationship }: { relationship: Relationship }) {
  switch (relationship) {
    case 'self':
      return (
        <span className="pill">
          <FormattedMessage
            id="directory.row.you"
            defaultMessage="You"
            description="Tag beside oneself in the directory results"
          />
        </span>
      );
    case 'request-sent':
      return (
        <span className="pill pill-plain">
          <FormattedMessage
            id="directory.row.requestSent"
            defaultMessage="Request sent"
            description="Tag beside someone in the directory results who was sent a request and has not answered"
          />
        </span>
      );
    case 'requester':
      return (
        <span className="pill pill-plain">
          <FormattedMessage
            id="directory.row.wantsContact"
            defaultMessage="Sent you a request"
            description="Tag beside someone in the directory results whose contact request waits in Requests"
          />
        </span>
      );
    case 'contact':
      return (
        <span className="pill pill-plain">
          <FormattedMessage
            id="directory.row.contact"
            defaultMessage="Contact"
            description="Tag beside a contact in the directory results"
          />
        </span>
      );
    case 'blocked':
      return (
        <span className="pill pill-plain">
          <FormattedMessage
            id="directory.row.blocked"
            defaultMessage="Blocked"
            description="Tag beside someone blocked in the directory results"
          />
        </span>
      );
    default:
      return null;
  }
}

function DirectoryActions({
  hit,
  relationship,
  onRequest,
}: {
  hit: DirectoryHit;
  relationship: Relationship;
  onRequest: () => void;
}) {
  const startConversation = useStore((s) => s.startConversation);
  const unblock = useStore((s) => s.unblock);
  const showView = useStore((s) => s.showView);
  const showToast = useStore((s) => s.showToast);
  const intl = useIntl();
  const handle = `@${hit.handle}`;
  if (relationship === 'self') return null;
  if (relationship === 'blocked')
    return (
      <div className="row">
        <button
          type="button"
          className="btn btn-secondary btn-sm"
          onClick={() => unblock(hit.address).catch((e: Error) => showToast('error', e.message))}
          aria-label={intl.formatMessage(
            {
              id: 'directory.row.unblockLabel',
              defaultMessage: 'Unblock {handle}',
              description: 'Accessible name of the Unblock button; {handle} is the person’s @handle',
            },
            { handle },
          )}
        >
          <FormattedMessage
            id="directory.row.unblock"
            defaultMessage="Unblock"
            description="Button in a directory result for someone blocked: ends the block"
          />
        </button>
      </div>
    );
  const message = (
    <button
      type="button"
      className="btn btn-primary btn-sm"
      onClick={() => startConversation(handle).catch((e: Error) => showToast('error', e.message))}
      aria-label={intl.formatMessage(
        {
          id: 'directory.row.messageLabel',
          defaultMessage: 'Message {handle}',
          description: 'Accessible name of the Message button; {handle} is the person’s @handle',
        },
        { handle },
      )}
    >
      <Icon name="chat" size={15} />{' '}
      <FormattedMessage
        id="directory.row.message"
        defaultMessage="Message"
        description="Button in a directory result: open a chat with the person"
      />
    </button>
  );
  if (relationship === 'requester')
    return (
      <div className="row">
        <button
          type="button"
          className="btn btn-primary btn-sm"
          onClick={() => showView('requests')}
          aria-label={intl.formatMessage(
            {
              id: 'directory.row.openRequestLabel',
              defaultMessage: 'See the request from {handle}',
              description: 'Accessible name of the button that opens Requests; {handle} is the person’s @handle',
            },
            { handle },
          )}
        >
          <FormattedMessage
            id="directory.row.openRequest"
            defaultMessage="See request"
            description="Button in a directory result for someone whose request waits: opens Requests"
          />
        </button>
      </div>
    );
  // a request goes to someone new, once: a contact gets messages, and one sent is not sent again
  const mayRequest = relationship === 'stranger' || relationship === 'member';
  return (
    <div className="row">
      {mayRequest && (
        <button
          type="button"
          className="btn btn-secondary btn-sm"
          onClick={onRequest}
          aria-label={intl.formatMessage(
            {
              id: 'directory.row.requestLabel',
              defaultMessage: 'Send request to {handle}',
              description: 'Accessible name of the Send request button; {handle} is the person’s @handle',
            },
            { handle },
          )}
        >
          <FormattedMessage
            id="directory.row.request"
            defaultMessage="Send request"
            description="Button in a directory result: write a contact request with an intro"
          />
        </button>
      )}
      {message}
    </div>
  );
}

function RequestDialog({ hit, onClose }: { hit: DirectoryHit | null; onClose: () => void }) {
  const sendContactRequest = useStore((s) => s.sendContactRequest);
  const showToast = useStore((s) => s.showToast);
  const [intro, setIntro] = useState('');
  const action = useAction(sendContactRequest);
  const intl = useIntl();
  const handle = hit ? `@${hit.handle}` : '';
  return (
    <Dialog
      title={
        hit
          ? intl.formatMessage(
              {
                id: 'directory.request.title',
                defaultMessage: 'Send a request to {handle}',
                description: 'Title of the contact request dialog; {handle} is the person’s @handle',
              },
              { handle },
            )
          : intl.formatMessage({
              id: 'directory.request.titleNone',
              defaultMessage: 'Send a request',
              description: 'Title of the contact request dialog while it closes',
            })
      }
      open={hit !== null}
      onClose={onClose}
    >
      {hit && (
        <form
          className="stack"
          onSubmit={async (e) => {
            e.preventDefault();
            const r = await action.run(hit.address, intro.trim());
            if (!r.ok) return;
            const outcome = requestOutcome(r.value, handle, intl);
            // A refusal stays in the dialog, where the user is looking; the intro is kept.
            if (outcome.tone === 'error') {
              action.setError(outcome.text);
              return;
            }
            showToast(outcome.tone, outcome.text);
            setIntro('');
            onClose();
          }}
        >
          <p className="subtle">
            <FormattedMessage
              id="directory.request.hint"
              defaultMessage="Say who you are. {handle} sees this intro and decides whether to accept."
              description="In the contact request dialog; {handle} is the person’s @handle"
              values={{ handle: <bdi dir="ltr">{handle}</bdi> }}
            />
          </p>
          <label className="field">
            <span className="field-label">
              <FormattedMessage
                id="directory.request.intro"
                defaultMessage="Intro"
                description="Field label: the words sent with a contact request"
              />
            </span>
            <textarea
              rows={4}
              value={intro}
              onChange={(e) => setIntro(e.target.value)}
              autoFocus
              maxLength={2000}
              placeholder={intl.formatMessage({
                id: 'directory.request.introPlaceholder',
                defaultMessage: 'Hi! We met at…',
                description: 'Example start of an intro in the contact request dialog',
              })}
            />
          </label>
          <FormError error={action.error} />
          <DialogFooter
            onCancel={onClose}
            submitLabel={intl.formatMessage({
              id: 'directory.request.submit',
              defaultMessage: 'Send request',
              description: 'Submit button of the contact request dialog',
            })}
            disabled={!intro.trim() || action.busy}
          />
        </form>
      )}
    </Dialog>
  );
}
