/**
 * Operator commands on the gateway's data: `merchant create|roll-key|disable|enable`, `session create` and
 * `user create` (`merchant secret`, on a spec-mode checkout's data, is merchant-secret.ts). They open
 * the configured database like the server does; on PGlite while a server runs they are handed to it
 * and run there on its database (command-context.ts, handoff-server.ts). On PostgreSQL running
 * instances hear of a merchant's change through the database (docs/gateway.md).
 */
import { parseArgs } from 'node:util';
import { PayframeError } from '../errors.ts';
import { checkoutUrl } from '../gateway/operations/hosted-payment-operations.ts';
import { recordAudit, userResource } from '../gateway/users/audit.ts';
import { createUser, passwordProblem } from '../gateway/users/user-store.ts';
import { isUserRole, roleTitle, USER_ROLES } from '../gateway/user-roles.ts';
import {
  closeCommandDatabase,
  commandConfig,
  commandGateway,
  commandStdin,
  openCommandDatabase,
} from './command-context.ts';
import { merchantSecret } from './merchant-secret.ts';
import { merchantUpdate } from './merchant-update.ts';
import { CliError, type Output } from './output.ts';

function usageError(message: string): CliError {
  return new CliError('invalid_arguments', message, 2);
}

function rethrow(err: unknown): never {
  if (err instanceof PayframeError) throw new CliError(err.code, err.message);
  throw err;
}

const MERCHANT_USAGE =
  'Usage: payframe merchant create --name <name> [--origin <url>]... [--3ds] [--json] | ' +
  'payframe merchant update --merchant <id> [options] | payframe merchant list [--json] | ' +
  'payframe merchant roll-key|disable|enable --merchant <id> [--json] | ' +
  'payframe merchant secret set|list|remove [options] (spec mode)';

/** `merchant roll-key`, `merchant disable`, `merchant enable`: a change to an existing merchant. */
async function merchantChange(sub: 'roll-key' | 'disable' | 'enable', rest: string[], out: Output) {
  const { values } = parseArgs({
    args: rest,
    strict: true,
    options: { json: { type: 'boolean' }, merchant: { type: 'string' } },
  });
  if (!values.merchant) throw usageError(`--merchant is required. ${MERCHANT_USAGE}`);
  const id = values.merchant;
  const config = commandConfig();
  const db = await openCommandDatabase(config);
  try {
    const { deps } = await commandGateway(config, db);
    if (sub === 'roll-key') {
      const transactionKey = await deps.merchants.rollKey(db, id);
      if (!transactionKey) throw new CliError('not_found', `No merchant ${id}.`);
      out.result({ merchantId: id, transactionKey }, [
        `Merchant ${id}: new TransactionKey: ${transactionKey}`,
        '(Shown once. The old key no longer works; redirects are now signed with the new one.)',
      ]);
      return;
    }
    if (!(await deps.merchants.setDisabled(db, id, sub === 'disable')))
      throw new CliError('not_found', `No merchant ${id}.`);
    out.result({ merchantId: id, disabled: sub === 'disable' }, [`Merchant ${id} ${sub}d.`]);
  } finally {
    await closeCommandDatabase(db);
  }
}

/** `merchant list`: every merchant with the origins that may frame its checkout, and its state. */
async function merchantList(rest: string[], out: Output) {
  parseArgs({ args: rest, strict: true, options: { json: { type: 'boolean' } } });
  const config = commandConfig();
  const db = await openCommandDatabase(config);
  try {
    const { deps } = await commandGateway(config, db);
    const { rows } = await db.query<{ id: string }>('select id from merchants order by id');
    const merchants = [];
    for (const { id } of rows) {
      const record = await deps.merchants.record(db, id);
      if (!record) continue; // removed meanwhile
      const { merchant, disabled } = record;
      merchants.push({
        merchantId: merchant.id,
        name: merchant.name,
        businessName: merchant.businessName,
        origins: merchant.origins,
        website: merchant.website,
        disabled,
      });
    }
    out.result(
      { merchants },
      merchants.length === 0
        ? ['No merchants.']
        : merchants.map(
            (m) =>
              `${m.merchantId}  ${m.businessName ?? m.name}${m.disabled ? ' (disabled)' : ''}  origins: ${
                m.origins.length ? m.origins.join(', ') : '(none)'
              }`,
          ),
    );
  } finally {
    await closeCommandDatabase(db);
  }
}

export async function merchantCommand(args: string[], out: Output): Promise<undefined> {
  const [sub, ...rest] = args;
  if (sub === 'list') {
    await merchantList(rest, out);
    return undefined;
  }
  if (sub === 'update') {
    await merchantUpdate(rest, out);
    return undefined;
  }
  if (sub === 'secret') {
    await merchantSecret(rest, out);
    return undefined;
  }
  if (sub === 'roll-key' || sub === 'disable' || sub === 'enable') {
    await merchantChange(sub, rest, out);
    return undefined;
  }
  if (sub !== 'create') throw usageError(MERCHANT_USAGE);
  const { values } = parseArgs({
    args: rest,
    strict: true,
    options: {
      json: { type: 'boolean' },
      name: { type: 'string' },
      origin: { type: 'string', multiple: true },
      '3ds': { type: 'boolean' },
      'business-name': { type: 'string' },
      'logo-url': { type: 'string' },
      email: { type: 'string' },
      phone: { type: 'string' },
      website: { type: 'string' },
      methods: { type: 'string' },
    },
  });
  if (!values.name) throw usageError('--name is required.');
  const config = commandConfig();
  const db = await openCommandDatabase(config);
  try {
    const { deps } = await commandGateway(config, db);
    const { merchant, transactionKey } = await deps.merchants
      .create(db, {
        name: values.name,
        origins: values.origin ?? [],
        threeDsEnrolled: values['3ds'] ?? false,
        businessName: values['business-name'] ?? null,
        logoUrl: values['logo-url'] ?? null,
        email: values.email ?? null,
        phone: values.phone ?? null,
        website: values.website ?? null,
        ...(values.methods
          ? { paymentMethods: values.methods.split(',').map((m) => m.trim()) as ('card' | 'ach')[] }
          : {}),
      })
      .catch(rethrow);
    out.result(
      {
        merchantId: merchant.id,
        transactionKey,
        publicCode: merchant.publicCode,
        name: merchant.name,
        origins: merchant.origins,
        threeDsEnrolled: merchant.threeDsEnrolled,
        paymentMethods: merchant.paymentMethods,
      },
      [
        `Merchant ${merchant.id} created: ${merchant.name}`,
        `TransactionKey: ${transactionKey}`,
        '(The key is shown once. Keep it secret: it authenticates this merchant and signs its redirects.)',
      ],
    );
  } finally {
    await closeCommandDatabase(db);
  }
  return undefined;
}

export async function sessionCommand(args: string[], out: Output): Promise<undefined> {
  const [sub, ...rest] = args;
  if (sub !== 'create') {
    throw usageError(
      'Usage: payframe session create --merchant <id> --amount <10.50> [--return-url <url>] [--order <no>] [--email <e>] [--json]',
    );
  }
  const { values } = parseArgs({
    args: rest,
    strict: true,
    options: {
      json: { type: 'boolean' },
      merchant: { type: 'string' },
      amount: { type: 'string' },
      'return-url': { type: 'string' },
      order: { type: 'string' },
      email: { type: 'string' },
      phone: { type: 'string' },
      'first-name': { type: 'string' },
      'last-name': { type: 'string' },
      currency: { type: 'string' },
      locale: { type: 'string' },
      'webhook-url': { type: 'string' },
    },
  });
  if (!values.merchant || !values.amount) throw usageError('--merchant and --amount are required.');
  const config = commandConfig();
  const db = await openCommandDatabase(config);
  try {
    const { deps } = await commandGateway(config, db);
    const merchant = await deps.merchants.get(db, values.merchant);
    if (!merchant) throw new CliError('not_found', `No merchant ${values.merchant}.`);
    const session = await deps.sessions
      .create(db, merchant, {
        amount: values.amount,
        currency: values.currency ?? null,
        orderNumber: values.order ?? null,
        email: values.email ?? null,
        phoneNumber: values.phone ?? null,
        firstName: values['first-name'] ?? null,
        lastName: values['last-name'] ?? null,
        returnUrl: values['return-url'] ?? null,
        webhookUrl: values['webhook-url'] ?? null,
        locale: values.locale ?? null,
      })
      .catch(rethrow);
    const url = checkoutUrl(deps, session.token);
    out.result({ token: session.token, url, expiresAt: session.expiresAt.toISOString() }, [
      `Checkout session created: ${url}`,
      `Expires at ${session.expiresAt.toISOString()}`,
    ]);
  } finally {
    await closeCommandDatabase(db);
  }
  return undefined;
}

const USER_USAGE =
  'Usage: payframe user create --merchant <id> --username <name> --password-stdin [--email <address>] [--role owner|admin|staff|viewer] [--json]';

/** Standard input up to its end, less one final line break (`echo "$PW" | payframe user create …`). */
async function readStdin(): Promise<string> {
  return (await commandStdin()).replace(/\r?\n$/, '');
}

/** `user create`: a merchant user who can sign in with Login (docs/gateway-users.md). */
export async function userCommand(args: string[], out: Output): Promise<undefined> {
  const [sub, ...rest] = args;
  if (sub !== 'create') throw usageError(USER_USAGE);
  const { values } = parseArgs({
    args: rest,
    strict: true,
    options: {
      json: { type: 'boolean' },
      merchant: { type: 'string' },
      username: { type: 'string' },
      email: { type: 'string' },
      role: { type: 'string' },
      // The password never goes on the command line, where `ps` and shell history would show it.
      'password-stdin': { type: 'boolean' },
    },
  });
  if (!values.merchant || !values.username || !values['password-stdin']) {
    throw usageError(`--merchant, --username and --password-stdin are required. ${USER_USAGE}`);
  }
  const role = values.role ?? 'owner';
  if (!isUserRole(role)) throw usageError(`--role must be one of ${USER_ROLES.join(', ')}. ${USER_USAGE}`);
  const password = await readStdin();
  const weak = passwordProblem(password);
  if (weak) throw new CliError('validation_failed', weak.message); // before opening the database
  const config = commandConfig();
  const db = await openCommandDatabase(config);
  try {
    const user = await createUser(db, {
      merchantId: values.merchant,
      username: values.username,
      password,
      email: values.email ?? null,
      role,
    }).catch(rethrow);
    await recordAudit(db, {
      actor: 'cli',
      action: 'user.created',
      resource: userResource(user.id),
      outcome: 'success',
      detail: { role: user.role },
      at: new Date(),
    });
    const { id: userId, merchantId, username, email } = user;
    out.result({ userId, merchantId, username, email, role: user.role }, [
      `User ${username} (${roleTitle(user.role)}) created for merchant ${merchantId} (${user.merchantName}).`,
    ]);
  } finally {
    await closeCommandDatabase(db);
  }
  return undefined;
}
