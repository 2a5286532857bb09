/**
 * The field where someone is named by @handle or address (new chat, add a member). Typing
 * calls onChange, where the caller also clears an error about what was typed before.
 */
export function RecipientField({
  label,
  value,
  placeholder,
  invalid,
  autoFocus,
  className = 'field',
  onChange,
}: {
  label: string;
  value: string;
  placeholder: string;
  invalid: boolean;
  autoFocus?: boolean;
  className?: string;
  onChange: (value: string) => void;
}) {
  return (
    <label className={className}>
      <span className="field-label">{label}</span>
      <input
        value={value}
        onChange={(e) => onChange(e.target.value)}
        placeholder={placeholder}
        autoFocus={autoFocus}
        spellCheck={false}
        // a handle or address reads left to right even in an Arabic form; while empty, the
        // placeholder (a sentence in the page's language) runs the page's way
        dir={value ? 'auto' : undefined}
        autoCapitalize="off"
        aria-invalid={invalid ? true : undefined}
      />
    </label>
  );
}
