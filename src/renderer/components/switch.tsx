/** An on/off setting: a button with the switch role, so screen readers announce its state. */
export function Switch({ label, checked, busy, disabled, onChange }: { label: string; checked: boolean; busy?: boolean; disabled?: boolean; onChange: (v: boolean) => void }) {
  return (
    <button type="button" role="switch" aria-checked={checked} aria-label={label} className={checked ? 'switch on' : 'switch'} disabled={busy || disabled} onClick={() => onChange(!checked)}>
      <span className="switch-knob" />
    </button>
  );
}
