import swagger, { type StaticDocumentSpec } from '@fastify/swagger';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { WIRE_COMPONENTS } from '../../../shared/api/components.js';
import { plainError } from './error-shape.js';

const DESCRIPTION = `A relay for an end-to-end encrypted messenger whose identities are wallet addresses.
It resolves handles, searches a public directory, serves device public keys, and routes
envelopes that clients sealed on their side (X25519 + HKDF-SHA256 + AES-256-GCM) through
anti-spam rules; it never sees plaintext.

**Getting a key.** POST /api/v1/auth/challenge with your address, sign the returned EIP-4361
message with your wallet (EIP-191 personal_sign), and POST it to /api/v1/auth/keys (with your
device key and its certificate). The answer holds an \`sk_live_\` API key, shown once. Send it
as \`Authorization: Bearer sk_live_...\`. Group bot tokens (\`gtk_live_...\`) work on group routes.

**Limits.** 120 requests a rolling minute per credential, and per peer address for requests
without a valid one (429 with Retry-After and RateLimit headers); at most 100 envelopes per
request, 64 KiB of ciphertext per envelope, 1 MiB per body. Queue quotas per recipient device
(429 \`recipient-full\`), of which contact requests may fill half (429 \`requests-full\`);
undelivered contact requests and pending group invitations per sender and recipient (429
\`too-many-requests-pending\`); a disk guard on sends and other writes (507 \`storage-full\`);
16 devices (409 \`too-many-devices\`), 50 active API keys (409 \`too-many-keys\`), 100 created
groups (429 \`too-many-groups\`) and 16 held pulls per wallet by default. Blobs: at most 25 MiB
each by default (413) and 512 MiB of unexpired blobs per wallet (429 \`blob-quota-full\`).
Errors are \`{ "error": string, "code": string }\`, whoever raises them (a malformed URL, an unknown
route: 404 \`no-route\`, counted against the address's budget for bad requests); no error repeats
the request's URL. On every route, a Host that is not a plain host[:port] is 400 \`bad-host\` and a
host this relay does not answer for 421 \`host-not-allowed\`.`;

/** Stable names for client generators, one per operation. */
const OPERATION_IDS: Record<string, string> = {
  'GET /api/v1/me': 'getMe',
  'GET /api/v1/handles/:handle': 'resolveHandle',
  'GET /api/v1/directory': 'searchDirectory',
  'GET /api/v1/keys/:address': 'getDeviceKeys',
  'GET /api/v1/envelopes': 'pullEnvelopes',
  'POST /api/v1/envelopes': 'sendEnvelopes',
  'POST /api/v1/envelopes/ack': 'ackEnvelopes',
  'GET /api/v1/groups': 'listGroups',
  'POST /api/v1/groups': 'createGroup',
  'GET /api/v1/groups/:id': 'getGroup',
  'PATCH /api/v1/groups/:id': 'updateGroup',
  'POST /api/v1/groups/:id/envelopes': 'sendGroupEnvelopes',
  'POST /api/v1/groups/:id/members': 'addGroupMember',
  'DELETE /api/v1/groups/:id/members/:address': 'removeGroupMember',
  'POST /api/v1/groups/:id/join': 'joinGroup',
  'POST /api/v1/groups/:id/tokens': 'mintBotToken',
  'DELETE /api/v1/groups/:id/tokens/:tokenId': 'revokeBotToken',
  'PUT /api/v1/groups/:id/admins/:address': 'addGroupAdmin',
  'DELETE /api/v1/groups/:id/admins/:address': 'removeGroupAdmin',
  'GET /api/v1/me/invitations': 'listGroupInvitations',
  'POST /api/v1/groups/:id/invitation': 'answerGroupInvitation',
  'POST /api/v1/auth/challenge': 'getSignInChallenge',
  'POST /api/v1/auth/keys': 'signIn',
  'GET /api/v1/me/keys': 'listApiKeys',
  'POST /api/v1/me/keys': 'mintApiKey',
  'DELETE /api/v1/me/keys/:id': 'revokeApiKey',
  'POST /api/v1/devices': 'registerDevice',
  'DELETE /api/v1/devices/:publicKey': 'revokeDevice',
  'PUT /api/v1/me/handle': 'claimHandle',
  'GET /api/v1/me/policy': 'getInboxPolicy',
  'PUT /api/v1/me/policy': 'setInboxPolicy',
  'GET /api/v1/contacts': 'listContacts',
  'PUT /api/v1/contacts/:address': 'allowSender',
  'DELETE /api/v1/contacts/:address': 'forgetSender',
  'PUT /api/v1/blocks/:address': 'blockSender',
  'DELETE /api/v1/blocks/:address': 'unblockSender',
  'GET /api/v1/stake-config': 'getStakeConfig',
  'GET /api/v1/stakes': 'listStakes',
  'GET /api/v1/stakes/:id': 'getStake',
  'POST /api/v1/stakes/:id/release': 'releaseStake',
  'POST /api/v1/blobs': 'uploadBlob',
  'GET /api/v1/blobs/:id': 'downloadBlob',
  'DELETE /api/v1/blobs/:id': 'deleteBlob',
  'GET /livez': 'getLiveness',
  'GET /readyz': 'getReadiness',
};

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null;
const NAMED = new Map(WIRE_COMPONENTS.map((s) => [(s as Json).$id as string, s as Json]));

/**
 * A schema as the document shows it: each named wire schema inside it (and itself, unless it is
 * the component being defined) replaced by a `$ref` to its component, which @fastify/swagger
 * writes as `#/components/schemas/<$id>`. A description of its own (an error answer's text for
 * its route and status) stays beside the reference. Only the document sees these copies: the
 * routes validate with the schemas as written.
 */
function referenced(schema: unknown, defining: boolean): unknown {
  if (Array.isArray(schema)) return schema.map((s) => referenced(s, false));
  if (!isObject(schema)) return schema;
  const id = schema.$id;
  if (typeof id === 'string' && !defining) {
    const named = NAMED.get(id);
    if (!named) throw new Error(`the schema ${id} has an $id but is not one of WIRE_COMPONENTS`);
    const own = schema.description !== undefined && schema.description !== named.description;
    return own ? { $ref: `${id}#`, description: schema.description } : { $ref: `${id}#` };
  }
  return Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, referenced(v, false)]));
}

/** The route's schema for the document: its body and answers refer to the named components. */
function documented(schema: Json): Json {
  const out = { ...schema };
  if (out.body !== undefined) out.body = referenced(out.body, false);
  if (isObject(out.response)) out.response = referenced(out.response, false);
  return out;
}

/** The OpenAPI 3.1.0 document at /openapi.json and the human-readable reference at `/`, both offline. */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  for (const schema of WIRE_COMPONENTS) app.addSchema(referenced(schema, true) as Json);
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Messaging Relay API',
        version: '1.0.0',
        description: DESCRIPTION,
        license: { name: 'MIT', identifier: 'MIT' },
      },
      // Relative, so the document is right however the relay is reached (loopback, LAN address, proxy).
      servers: [{ url: '/', description: 'this relay' }],
      tags: [
        { name: 'identity', description: 'Who a key is, handles, the directory and device keys' },
        { name: 'envelopes', description: 'Sending, pulling and acknowledging sealed envelopes' },
        { name: 'groups', description: 'Groups, their members, group sends and bot tokens' },
        { name: 'account', description: 'Sign-in, API keys, devices, handle, inbox policy, contacts' },
        { name: 'stakes', description: 'Refundable anti-spam stakes paid into an escrow contract on one EVM chain' },
        { name: 'blobs', description: 'Encrypted attachment bytes: upload, download with Range, delete' },
        { name: 'health', description: 'Probes for an orchestrator: the process answers, the node can serve' },
      ],
      components: {
        securitySchemes: {
          apiKey: { type: 'http', scheme: 'bearer', description: 'An `sk_live_` API key from POST /api/v1/auth/keys' },
          groupToken: {
            type: 'http',
            scheme: 'bearer',
            description: 'A `gtk_live_` bot token minted by a group creator (group routes only)',
          },
        },
      },
    },
    hideUntagged: true,
    // components are named by their $id (the plugin's default would be def-0, def-1, …)
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`),
    },
    transform: ({ schema, url, route }) => {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      const operationId = OPERATION_IDS[`${methods[0]} ${url}`];
      const shown = documented(schema as Json);
      return { schema: operationId ? { ...shown, operationId } : shown, url };
    },
  });

  registerReference(app);

  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  // The reference page itself at `/`: Swagger UI's page, whose assets live under /reference/static
  // and whose script loads the document from `./json` relative to the page, hence the alias.
  let page: { html: string; csp: string | undefined } | null = null;
  app.get('/', { schema: { hide: true } }, async (_req, reply) => {
    if (page === null) {
      const res = await app.inject({ method: 'GET', url: '/reference', headers: { host: '127.0.0.1' } });
      const csp = res.headers['content-security-policy'];
      page = { html: res.body, csp: typeof csp === 'string' ? csp : undefined };
    }
    if (page.csp) reply.header('content-security-policy', page.csp);
    return reply.type('text/html; charset=utf-8').send(page.html);
  });
  app.get('/json', { schema: { hide: true } }, async () => app.swagger());
}

const REFERENCE_UI = {
  routePrefix: '/reference',
  // Everything from this origin; no upgrade-insecure-requests (plain-http loopback relays) and no
  // validator.swagger.io (the page must work offline and call nobody).
  staticCSP:
    "default-src 'self'; base-uri 'self'; img-src 'self' data:; font-src 'self' data:; object-src 'none'; script-src 'self'; style-src 'self'; frame-ancestors 'none'; form-action 'self'",
  uiConfig: { docExpansion: 'list' as const, deepLinking: true, defaultModelsExpandDepth: 0, tryItOutEnabled: false },
  theme: { title: 'Messaging Relay API reference' },
};

/** Answer headers that belong to the inner request, not to the one being answered. */
const INNER_ONLY = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive', 'date']);

/**
 * Swagger UI at /reference, loaded on the first request for it: the page and its static-file
 * server are a tenth of an idle relay's memory (~7 MiB), and most relays never show the page.
 * It runs in a small Fastify instance of its own, over a static copy of this relay's document,
 * and answers through `inject`; what it refuses is answered in this relay's words (error-shape.ts).
 */
function registerReference(app: FastifyInstance): void {
  let ui: Promise<FastifyInstance> | null = null;
  const load = (): Promise<FastifyInstance> =>
    (ui ??= (async () => {
      const { default: swaggerUi } = await import('@fastify/swagger-ui');
      const inner = Fastify();
      // The plugin serves a static document as given, but its type names only OpenAPI 2 and 3.0
      // documents; ours is 3.1, which the same code path serves unchanged.
      const document = app.swagger() as StaticDocumentSpec['document'];
      await inner.register(swagger, { mode: 'static', specification: { document } });
      await inner.register(swaggerUi, REFERENCE_UI);
      await inner.ready();
      return inner;
    })().catch((err: unknown) => {
      ui = null;
      throw err;
    }));
  const forward = async (req: FastifyRequest, reply: FastifyReply) => {
    // always GET: for HEAD, Fastify drops the body of this answer and keeps its length
    const res = await (await load()).inject({ method: 'GET', url: req.url, headers: req.headers });
    // A path outside the static folder (403 there) is as absent as a missing file: this relay's 404.
    if (res.statusCode === 404 || res.statusCode === 403) return reply.callNotFound();
    // Other refusals (a Range past the end) keep their status and get our words.
    if (res.statusCode >= 400) return reply.code(res.statusCode).send(plainError(res.statusCode));
    for (const [name, value] of Object.entries(res.headers))
      if (value !== undefined && !INNER_ONLY.has(name)) reply.header(name, value);
    return reply.code(res.statusCode).send(res.rawPayload);
  };
  app.get('/reference', { schema: { hide: true } }, forward);
  app.get('/reference/*', { schema: { hide: true } }, forward);
  app.addHook('onClose', async () => {
    if (ui) await (await ui.catch(() => null))?.close();
  });
}
