/** The client CLI's `group` commands (cli.ts): create, members and admins, invitations, sending, bot tokens. */
import type { ConversationId } from '../../../shared/domain.js';
import type { Messenger } from '../core/messenger.js';
import { address, atMostArgs, exitUnlessDelivered, need, recipient, sendState } from './cli-args.js';
import { UsageError, printJson } from './cli-support.js';

/** The options `group` reads (parsed in cli.ts). */
export interface GroupOptions {
  public?: boolean;
  password?: string;
  'password-env'?: string;
  block?: boolean;
  file?: string[];
}

export function groupId(id: string | undefined): string {
  if (!id || !/^[0-9a-fA-F-]{36}$/.test(id)) throw new UsageError('a group id (uuid) is required');
  return id.toLowerCase();
}

/**
 * The group password of `create` and `join`: from the variable named by --password-env, since
 * a command line is readable by every user of the computer (ps, /proc); --password still works,
 * with a warning saying so.
 */
export function groupPassword(values: GroupOptions): string | undefined {
  const name = values['password-env'];
  if (values.password !== undefined && name !== undefined)
    throw new UsageError('give either --password-env VAR or --password, not both');
  if (name !== undefined) {
    const password = process.env[name];
    if (!password) throw new UsageError(`the environment variable ${name} (named by --password-env) is not set`);
    return password;
  }
  if (values.password !== undefined)
    process.stderr.write(
      "client: warning: --password puts the group password in this process's command line, which other users of this computer can read (ps, /proc); use --password-env VAR instead\n",
    );
  return values.password;
}

export async function group(m: Messenger, args: string[], values: GroupOptions): Promise<void> {
  const [sub, ...rest] = args;
  atMostArgs(`group ${sub}`, rest);
  switch (sub) {
    case 'create': {
      need(rest, 1, '<name>');
      const password = groupPassword(values);
      printJson(
        await m.groups.create({
          name: rest.join(' '),
          isPublic: values.public === true,
          ...(password ? { password } : {}),
        }),
      );
      return;
    }
    case 'add':
      need(rest, 2, '<id> <address|@handle>');
      printJson(await m.groups.addMember({ groupId: groupId(rest[0]), member: recipient(rest[1]) }));
      return;
    case 'remove':
      need(rest, 2, '<id> <address>');
      printJson(await m.groups.removeMember({ groupId: groupId(rest[0]), address: address(rest[1]) }));
      return;
    case 'accept':
      printJson(await m.groups.acceptInvitation({ groupId: groupId(rest[0]) }));
      return;
    case 'decline':
      await m.groups.declineInvitation({ groupId: groupId(rest[0]), blockInviter: values.block === true });
      printJson({ ok: true, declined: groupId(rest[0]), blocked: values.block === true });
      return;
    case 'admin':
    case 'unadmin':
      need(rest, 2, '<id> <address>');
      printJson(await m.groups.setAdmin({ groupId: groupId(rest[0]), address: address(rest[1]) }, sub === 'admin'));
      return;
    case 'join': {
      const password = groupPassword(values);
      printJson(await m.groups.join({ groupId: groupId(rest[0]), ...(password !== undefined ? { password } : {}) }));
      return;
    }
    case 'leave':
      await m.groups.leave({ groupId: groupId(rest[0]) });
      printJson({ ok: true });
      return;
    case 'info':
      printJson(await m.groups.get({ groupId: groupId(rest[0]) }));
      return;
    case 'list':
      printJson(values.public ? await m.groups.listPublic() : await m.groups.listMine());
      return;
    case 'send': {
      const files = values.file ?? [];
      need(rest, files.length > 0 ? 1 : 2, files.length > 0 ? '<id>' : '<id> <text>');
      const id = groupId(rest[0]);
      const text = rest.slice(1).join(' ');
      const { outcome } =
        files.length > 0
          ? await m.messages.sendFiles(`group:${id}` as ConversationId, files, text)
          : await m.messages.sendAndWait(`group:${id}` as ConversationId, text);
      printJson({
        messageId: outcome.messageId,
        groupId: id,
        state: sendState(outcome),
        routed: outcome.routed,
        error: outcome.error,
        devices: outcome.deliveries,
      });
      exitUnlessDelivered(outcome);
      return;
    }
    case 'token':
      need(rest, 2, '<id> <name>');
      printJson(await m.groups.mintBotToken({ groupId: groupId(rest[0]), name: rest.slice(1).join(' ') }));
      return;
    case 'tokens':
      printJson(await m.groups.listBotTokens({ groupId: groupId(rest[0]) }));
      return;
    case 'revoke-token':
      need(rest, 2, '<id> <tokenId>');
      await m.groups.revokeBotToken({ groupId: groupId(rest[0]), tokenId: rest[1].toLowerCase() });
      printJson({ ok: true });
      return;
    default:
      throw new UsageError(`unknown group command "${sub ?? ''}"`);
  }
}
