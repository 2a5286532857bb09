import { useEffect, useRef, useState } from 'react';
import type { DirectoryHit } from '../../shared/domain.js';
import { Avatar } from '../components/avatar.js';
import { VerifiedBadge } from '../components/badges.js';
import { Dialog } from '../components/dialog.js';
import { DialogFooter } from '../components/dialog-footer.js';
import { EmptyState } from '../components/empty-state.js';
import { FormError } from '../components/form-error.js';
import { Icon } from '../components/icon.js';
import { requestOutcome } from '../format.js';
import { Person } from '../components/person.js';
import { useStore } from '../store/store.js';
import { useAction } from '../use-action.js';

export function Directory() {
  const directory = useStore((s) => s.directory);
  const searchDirectory = useStore((s) => s.searchDirectory);
  const me = useStore((s) => s.status?.address?.toLowerCase());
  const [q, setQ] = useState(directory.query);
  const [requestTo, setRequestTo] = useState<DirectoryHit | null>(null);
  const first = useRef(true);

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
          <h1>Directory</h1>
          <p className="subtle">Find people on your relay by handle or address.</p>
        </div>
      </header>
      <div className="search-big">
        <Icon name="search" size={18} />
        <input type="search" aria-label="Search the directory" placeholder="Search by handle or address" value={q} onChange={(e) => setQ(e.target.value)} autoFocus spellCheck={false} autoCapitalize="off" />
        {directory.loading && <span className="spinner" aria-label="Searching" />}
      </div>
      <FormError error={directory.error} />
      {!directory.loading && directory.hits.length === 0 && !directory.error ? (
        <EmptyState icon="search" title={q.trim() ? `Nobody matches “${q.trim()}”` : 'Nobody here yet'}>
          {q.trim() ? 'Check the spelling, or paste their full wallet address.' : 'People appear here once they claim a handle on this relay.'}
        </EmptyState>
      ) : (
        <ul className="card-list" aria-label="Directory results">
          {directory.hits.map((h) => (
            <li key={h.address}>
              <DirectoryRow hit={h} self={h.address.toLowerCase() === me} onRequest={() => setRequestTo(h)} />
            </li>
          ))}
        </ul>
      )}
      <RequestDialog hit={requestTo} onClose={() => setRequestTo(null)} />
    </div>
  );
}

function DirectoryRow({ hit, self, onRequest }: { hit: DirectoryHit; self: boolean; onRequest: () => void }) {
  const startConversation = useStore((s) => s.startConversation);
  const showToast = useStore((s) => s.showToast);
  return (
    <article className="card person-row" aria-label={`@${hit.handle}`}>
      <Avatar name={hit.handle} seed={hit.address} size={40} />
      <div className="person-text">
        <span className="person-name">
          <Person address={hit.address} handle={hit.handle} /> {hit.verified && <VerifiedBadge />} {self && <span className="pill">You</span>}
        </span>
      </div>
      {!self && (
        <div className="row">
          <button type="button" className="btn btn-secondary btn-sm" onClick={onRequest} aria-label={`Send request to @${hit.handle}`}>
            Send request
          </button>
          <button type="button" className="btn btn-primary btn-sm" onClick={() => startConversation(`@${hit.handle}`).catch((e: Error) => showToast('error', e.message))} aria-label={`Message @${hit.handle}`}>
            <Icon name="chat" size={15} /> Message
          </button>
        </div>
      )}
    </article>
  );
}

function RequestDialog({ hit, onClose }: { hit: DirectoryHit | null; onClose: () => void }) {
  const sendContactRequest = useStore((s) => s.sendContactRequest);
  const showToast = useStore((s) => s.showToast);
  const [intro, setIntro] = useState('');
  const action = useAction(sendContactRequest);
  return (
    <Dialog title={hit ? `Send a request to @${hit.handle}` : 'Send a request'} open={hit !== null} onClose={onClose}>
      {hit && (
        <form
          className="stack"
          onSubmit={async (e) => {
            e.preventDefault();
            const r = await action.run(hit.address, intro.trim());
            if (!r.ok) return;
            const outcome = requestOutcome(r.value, `@${hit.handle}`);
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
          <p className="subtle">Say who you are. @{hit.handle} sees this intro and decides whether to accept.</p>
          <label className="field">
            <span className="field-label">Intro</span>
            <textarea rows={4} value={intro} onChange={(e) => setIntro(e.target.value)} autoFocus maxLength={2000} placeholder="Hi! We met at…" />
          </label>
          <FormError error={action.error} />
          <DialogFooter onCancel={onClose} submitLabel="Send request" disabled={!intro.trim() || action.busy} />
        </form>
      )}
    </Dialog>
  );
}
