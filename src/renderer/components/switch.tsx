/**
 * An on/off setting: a button with the switch role, so screen readers announce its state.
 * `disabledReason`: shown when it cannot be used (beside it, and as its description), since a
 * control that is off-limits always says why.
 */
export function Switch({
  label,
  checked,
  busy,
  disabled,
  disabledReason,
  onChange,
}: {
  label: string;
  checked: boolean;
  busy?: boolean;
  disabled?: boolean;
  disabledReason?: string;
  onChange: (v: boolean) => void;
}) {
  const id = `${label.replace(/\W+/g, '-').toLowerCase()}-why`;
  const why = disabled && disabledReason ? disabledReason : null;
  const button = (
    <button
      type="button"
      role="switch"
      aria-checked={checked}
      aria-label={label}
      aria-describedby={why ? id : undefined}
      className={checked ? 'switch on' : 'switch'}
      disabled={busy || disabled}
      onClick={() => onChange(!checked)}
    >
      <span className="switch-knob" />
    </button>
  );
  if (!why) return button;
  return (
    <span className="switch-wrap">
      <span className="why-disabled" id={id}>
        {why}
      </span>
      {button}
    </span>
  );
}
