import { FormattedMessage, useIntl } from 'react-intl';
import type { GroupInfo } from '../../shared/domain.js';
import { SecretKeyList } from '../components/secret-key-list.js';
import { CopyButton } from '../components/copy-button.js';
import { useStore } from '../store.js';

/** A group's bot tokens, minted and revoked by those who manage it, with the group's id a script needs. */
export function BotTokens({ g }: { g: GroupInfo }) {
  const tokens = useStore((s) => s.groups.tokens);
  const mintBotToken = useStore((s) => s.mintBotToken);
  const revokeBotToken = useStore((s) => s.revokeBotToken);
  const intl = useIntl();
  const title = intl.formatMessage({
    id: 'groups.tokens.title',
    defaultMessage: 'Bot tokens',
    description: 'Heading of the bot token section on a group’s page, and name of its list',
  });
  const groupId = intl.formatMessage({
    id: 'groups.tokens.groupId',
    defaultMessage: 'Group ID',
    description: 'Label of the group’s id (a long code) in the bot token section',
  });
  return (
    <section className="section" aria-labelledby="tokens-title">
      <h3 id="tokens-title">{title}</h3>
      <p className="subtle small">
        <FormattedMessage
          id="groups.tokens.hint"
          defaultMessage="A bot token lets a script post into this group. Its posts are marked as a bot's."
          description="Explanation under the Bot tokens heading"
        />
      </p>
      <div className="row tight">
        <span className="small subtle">{groupId}</span>
        <code className="inline-code" aria-label={groupId} data-copy-source={g.id} dir="ltr">
          {g.id}
        </code>
        <CopyButton
          text={g.id}
          label={intl.formatMessage({
            id: 'groups.tokens.copyId',
            defaultMessage: 'Copy group ID',
            description: 'Button that copies the group’s id',
          })}
        />
      </div>
      <SecretKeyList
        key={g.id}
        texts={{
          label: intl.formatMessage({
            id: 'groups.tokens.new.label',
            defaultMessage: 'New bot token',
            description: 'Accessible name of the box showing a just-minted bot token.',
          }),
          note: intl.formatMessage({
            id: 'groups.tokens.new.note',
            defaultMessage: 'Copy this bot token now. It is shown only once and cannot be recovered.',
            description: 'Warning above a just-minted bot token, which the relay shows only once.',
          }),
          value: intl.formatMessage({
            id: 'groups.tokens.new.value',
            defaultMessage: 'Bot token secret',
            description: 'Accessible name of the just-minted bot token’s value.',
          }),
          copy: intl.formatMessage({
            id: 'groups.tokens.new.copy',
            defaultMessage: 'Copy bot token',
            description: 'Button that copies the just-minted bot token.',
          }),
        }}
        listLabel={title}
        icon="bot"
        items={tokens.map((t) => ({ ...t, revocable: true }))}
        nameLabel={intl.formatMessage({
          id: 'groups.tokens.nameLabel',
          defaultMessage: 'Bot name',
          description: 'Field label: the name a new bot token’s posts show',
        })}
        placeholder={intl.formatMessage({
          id: 'groups.tokens.namePlaceholder',
          defaultMessage: 'deploy-notifier',
          description: 'Example bot name in the Bot name field (a short script-like name)',
        })}
        nameRequired
        mintLabel={intl.formatMessage({
          id: 'groups.tokens.mint',
          defaultMessage: 'Mint token',
          description: 'Button that creates a new bot token',
        })}
        mintIcon="key"
        emptyText={intl.formatMessage({
          id: 'groups.tokens.empty',
          defaultMessage: 'No bot tokens yet.',
          description: 'In the bot token list when there is none',
        })}
        onMint={(name) => mintBotToken(g.id, name)}
        onRevoke={(id) => revokeBotToken(g.id, id)}
      />
    </section>
  );
}
