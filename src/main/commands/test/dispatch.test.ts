import { describe, expect, it } from 'vitest';
import { commands } from '../../../shared/ipc.js';
import { RelayError } from '../../client/network/relay-api.js';
import { VaultError } from '../../vault/vault-error.js';
import { dispatch } from '../dispatch.js';
import type { Handlers } from '../handler-types.js';
import { AppError, toIpcError } from '../../../shared/plain-errors.js';

/** Every command answers with its own name, so a test can see which handler ran. */
function echoHandlers(): Handlers {
  return Object.fromEntries(
    Object.keys(commands).map((k) => [k, async (a: unknown) => ({ ran: k, args: a })]),
  ) as unknown as Handlers;
}

describe('dispatch', () => {
  it('runs the named handler with arguments that pass the contract', async () => {
    const r = await dispatch(echoHandlers(), 'messages.send', {
      conversationId: `direct:0x${'a'.repeat(40)}`,
      text: 'hi',
    });
    expect(r).toEqual({
      ok: true,
      value: { ran: 'messages.send', args: { conversationId: `direct:0x${'a'.repeat(40)}`, text: 'hi' } },
    });
  });

  it('refuses unknown commands, including prototype names', async () => {
    for (const name of ['fs.readFile', 'constructor', '__proto__', 'toString', 42, null]) {
      const r = await dispatch(echoHandlers(), name, {});
      expect(r).toMatchObject({ ok: false, error: { code: 'unknown-command' } });
    }
  });

  it('refuses arguments outside the schema before any handler runs', async () => {
    let ran = false;
    const handlers = { ...echoHandlers(), 'messages.send': async () => ((ran = true), null) } as unknown as Handlers;
    const bad = [
      undefined,
      {},
      { conversationId: 'direct:nope', text: 'x' },
      { conversationId: `direct:0x${'a'.repeat(40)}`, text: '' },
      { conversationId: `direct:0x${'a'.repeat(40)}`, text: 'x', extra: true },
      { conversationId: `direct:0x${'a'.repeat(40)}`, text: 'x'.repeat(20001) },
    ];
    for (const args of bad) {
      const r = await dispatch(handlers, 'messages.send', args);
      expect(r).toMatchObject({ ok: false, error: { code: 'bad-arguments' } });
    }
    expect(ran).toBe(false);
    const link = await dispatch(echoHandlers(), 'links.openExternal', { url: 'file:///etc/passwd' });
    expect(link.ok).toBe(false);
  });

  it('keeps files inside their bounds at the doorway: 10 a message, 25 MiB each, chunks under a frame, image previews only', async () => {
    const uuid = '0b6c2a4e-5f1d-4c3b-9a8e-7d6f5e4c3b2a';
    const conversationId = `direct:0x${'a'.repeat(40)}`;
    const refused = [
      ['attachments.stage', { name: 'big.iso', size: 25 * 1024 * 1024 - 15 }],
      ['attachments.stage', { name: '', size: 10 }],
      ['attachments.append', { uploadId: uuid, offset: 0, data: 'A'.repeat(Math.ceil((512 * 1024) / 3) * 4 + 4) }],
      [
        'attachments.send',
        { sendId: uuid, conversationId, text: '', files: Array.from({ length: 11 }, () => ({ uploadId: uuid })) },
      ],
      ['attachments.send', { sendId: uuid, conversationId, text: '', files: [] }],
      [
        'attachments.send',
        {
          sendId: uuid,
          conversationId,
          text: '',
          files: [{ uploadId: uuid, preview: 'data:image/svg+xml;base64,PHN2Zy8+' }],
        },
      ],
      ['attachments.send', { sendId: uuid, conversationId, text: 'x'.repeat(4001), files: [{ uploadId: uuid }] }],
    ] as const;
    for (const [name, args] of refused)
      expect(await dispatch(echoHandlers(), name, args), `${name} ${JSON.stringify(args).slice(0, 80)}`).toMatchObject({
        ok: false,
        error: { code: 'bad-arguments' },
      });
    const ten = {
      sendId: uuid,
      conversationId,
      text: 'hi',
      files: Array.from({ length: 10 }, () => ({ uploadId: uuid, preview: 'data:image/jpeg;base64,AAAA' })),
    };
    expect(await dispatch(echoHandlers(), 'attachments.send', ten)).toMatchObject({ ok: true });
    expect(
      await dispatch(echoHandlers(), 'attachments.stage', { name: 'ok.bin', size: 25 * 1024 * 1024 - 16 }),
    ).toMatchObject({ ok: true });
  });

  it('turns thrown errors into plain messages without stack traces', async () => {
    const boom = {
      ...echoHandlers(),
      'app.status': async () => {
        throw new TypeError("Cannot read properties of undefined (reading 'x')");
      },
    } as unknown as Handlers;
    const r = await dispatch(boom, 'app.status', {});
    expect(r).toMatchObject({ ok: false, error: { code: 'internal' } });
    expect(JSON.stringify(r)).not.toMatch(/undefined|at .*:\d+/);
  });
});

describe('toIpcError', () => {
  it('reads a refusal in the light of the command', () => {
    expect(toIpcError(new RelayError(409, 'handle taken'), 'profile.claimHandle')).toEqual({
      code: 'handle-taken',
      message: 'That handle is already taken. Try another.',
    });
    expect(toIpcError(new RelayError(403, 'wrong password'), 'groups.join').code).toBe('wrong-password');
    expect(toIpcError(new RelayError(429, 'slow down'), 'messages.send').code).toBe('rate-limited');
  });

  it('says the reason the relay named where no command gives a better one (the CLI calls it without one)', () => {
    const blocked = new RelayError(403, 'that wallet does not accept group invitations from you', 'blocked');
    expect(toIpcError(blocked)).toEqual({
      code: 'relay.blocked',
      message: 'That wallet does not accept group invitations from you.',
    });
    expect(toIpcError(new RelayError(403, 'nope'))).toEqual({
      code: 'forbidden',
      message: 'You’re not allowed to do that.',
    });
    expect(toIpcError(new RelayError(429, 'inbox full', 'recipient-full')).code).toBe('recipient-full');
  });

  it("words the relay's limits for a person, even where the command gives its status another meaning", () => {
    const addMember = toIpcError(
      new RelayError(403, 'that wallet asks strangers for a refundable stake', 'stake-required'),
      'groups.addMember',
    );
    expect(addMember).toMatchObject({
      code: 'stake-required',
      message: expect.stringMatching(/staked contact request/),
    });
    expect(
      toIpcError(new RelayError(429, 'too many', 'too-many-requests-pending'), 'groups.addMember').message,
    ).toMatch(/invitations/);
    expect(
      toIpcError(new RelayError(409, 'this wallet already has 50 active API keys', 'too-many-keys'), 'relay.connect')
        .message,
    ).toMatch(/Settings → API keys/);
    expect(toIpcError(new RelayError(429, 'at most 100', 'too-many-groups'), 'groups.create').code).toBe(
      'too-many-groups',
    );
    expect(toIpcError(new RelayError(429, 'requests full', 'requests-full'), 'messages.send').code).toBe(
      'requests-full',
    );
    // a command's own meaning still wins for codes without a sentence of their own
    expect(toIpcError(new RelayError(403, 'blocked', 'blocked'), 'groups.addMember').code).toBe('forbidden');
  });

  it('gives the vault’s codes a sentence a person can act on', () => {
    expect(toIpcError(new VaultError('bad-passphrase', 'gcm auth failed')).message).toBe(
      'That passphrase is not right.',
    );
    expect(toIpcError(new AppError('bad-arguments', 'Enter the relay’s address.'))).toEqual({
      code: 'bad-arguments',
      message: 'Enter the relay’s address.',
    });
  });
});
