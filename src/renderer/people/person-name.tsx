import { useEffect } from 'react';
import { displayName } from '../i18n/format.js';
import { useStore } from '../store.js';

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
 * A person's name with the whole name and the full address on hover and no button: for places
 * that hold their own (a row that is a button, a header with its own Copy). Where the name is
 * cut short to fit, the hover and screen readers still have all of it.
 */
export function PersonName({
  address,
  handle,
  className = 'person-chip-name',
}: {
  address: string;
  handle?: string | null;
  className?: string;
}) {
  const name = usePersonName(address, handle);
  // data, not words: the whole name over the whole address
  const hover = name === displayName(null, address) ? address : [name, address].join('\n');
  return (
    // dir="auto": a handle or address reads left to right inside right-to-left text ("@bob", not "bob@")
    <span className={className} title={hover} dir="auto">
      {name}
    </span>
  );
}
