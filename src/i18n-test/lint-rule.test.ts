/**
 * The lint rule that keeps sentences in the catalogue fails on a hard-coded one, in a file that
 * is converted, and passes the same text through the catalogue.
 */
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({ overrideConfigFile: '.config/eslint.config.js' });

async function ruleErrors(code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: 'src/renderer/settings/settings.tsx' });
  return result.messages.filter((m) => m.severity === 2 && m.ruleId?.startsWith('formatjs/')).map((m) => m.ruleId!);
}

describe('formatjs/no-literal-string-in-jsx', () => {
  it('fails on a hard-coded string in JSX', async () => {
    expect(await ruleErrors('export const A = () => <p>Hard-coded sentence.</p>;\n')).toEqual([
      'formatjs/no-literal-string-in-jsx',
    ]);
    expect(await ruleErrors('export const B = () => <input aria-label="Handle" />;\n')).toEqual([
      'formatjs/no-literal-string-in-jsx',
    ]);
  });

  it('passes the sentence from the catalogue', async () => {
    const code = `import { FormattedMessage } from 'react-intl';
export const A = () => (
  <p>
    <FormattedMessage id="x.sentence" defaultMessage="Hard-coded sentence." description="A sentence." />
  </p>
);
`;
    expect(await ruleErrors(code)).toEqual([]);
  });

  it('fails on a catalogue message without a description for translators', async () => {
    const code = `import { FormattedMessage } from 'react-intl';\nexport const A = () => <FormattedMessage id="x.y" defaultMessage="Hi" />;\n`;
    expect(await ruleErrors(code)).toContain('formatjs/enforce-description');
  });
});
