import { useEffect } from 'react';
import { displayName } from '../format.js';
import { useStore } from '../store/store.js';
import { CopyButton } from './copy-button.js';

/** Someone's name as every screen shows it: the handle when one is known (or learned), else the short address. */
export function usePersonName(address: string, handle?: string | null): string {
  const a = address.toLowerCase();
  const known = useStore((s) => s.handles[a]?.handle ?? null);
  const wantHandles = useStore((s) => s.wantHandles);
  useEffect(() => {
    if (!handle) void wantHandles([a]);
  }, [a, handle, wantHandles]);
  return displayName(handle ?? known, a);
}

/**
 * A person: their name (usePersonName), the full address on hover, and a button that copies the
 * address; the address is never spelled out twice.
 */
export function Person({ address, handle }: { address: string; handle?: string | null }) {
  const name = usePersonName(address, handle);
  return (
    <span className="person-chip">
      <span className="person-chip-name" title={address}>
        {name}
      </span>
      <CopyButton text={address} label={`Copy ${name}’s address`} className="btn btn-ghost btn-sm" />
    </span>
  );
}
