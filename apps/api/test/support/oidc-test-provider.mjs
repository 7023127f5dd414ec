// A real OpenID provider for the tests: oidc-provider (the certified implementation) on loopback,
// with one client and the test's accounts, and a minimal login page of its own in place of
// devInteractions: an email field that signs in the account with that email (no password: the
// tests are about what the product does with the provider's answer, not about the provider).
//
// Imported by the browser scenarios; run as a program by the jest specs (`node oidc-test-provider.mjs
// '<json options>'`), which read the line `{"issuer": …}` it prints once it listens.
import { createServer } from 'node:http';
import { pathToFileURL } from 'node:url';

import Provider from 'oidc-provider';

/**
 * @typedef {{ sub: string, email: string, email_verified: boolean, name: string, groups?: string[] }} TestAccount
 * @typedef {{ clientId: string, clientSecret: string, redirectUri: string, accounts: TestAccount[], port?: number }} ProviderOptions
 */

/** Starts the provider; resolves with its `issuer` and `close()`. */
export async function startOidcProvider(/** @type {ProviderOptions} */ options) {
  const server = createServer();
  await new Promise((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const address = server.address();
  const issuer = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const accounts = new Map(options.accounts.map((account) => [account.sub, account]));

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: options.clientId,
        client_secret: options.clientSecret,
        redirect_uris: [options.redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['name'],
      groups: ['groups'],
    },
    pkce: { required: () => true },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    cookies: { keys: ['a test provider cookie key'] },
    findAccount: (_ctx, sub) => {
      const account = accounts.get(sub);
      return account ? { accountId: sub, claims: () => ({ ...account }) } : undefined;
    },
  });

  const callback = provider.callback();
  server.on('request', (req, res) => {
    const match = /^\/interaction\/([\w-]+)(\/login)?$/.exec(new URL(req.url ?? '/', issuer).pathname);
    if (!match) return callback(req, res);
    interaction(req, res, Boolean(match[2])).catch((error) => {
      res.statusCode = 500;
      res.end(String(error));
    });
  });

  /** The login page (GET), and its form's answer (POST …/login): the account with that email. */
  async function interaction(req, res, submitted) {
    const details = await provider.interactionDetails(req, res);
    if (!submitted) return page(res, details.uid, null);
    const email = new URLSearchParams(await body(req)).get('email')?.trim().toLowerCase() ?? '';
    const account = options.accounts.find((candidate) => candidate.email.toLowerCase() === email);
    if (!account) return page(res, details.uid, `No account here has the email ${email}.`);
    // Consent is granted with the login: the test client asks only for what it is given.
    const grant = new provider.Grant({ accountId: account.sub, clientId: details.params.client_id });
    grant.addOIDCScope(String(details.params.scope));
    const grantId = await grant.save();
    await provider.interactionFinished(
      req,
      res,
      { login: { accountId: account.sub }, consent: { grantId } },
      { mergeWithLastSubmission: false },
    );
  }

  return {
    issuer,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve(undefined));
      }),
  };
}

function page(res, uid, problem) {
  res.setHeader('content-type', 'text/html; charset=utf-8');
  res.end(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Test identity provider</title>
<style>body{font:16px system-ui,sans-serif;max-width:24rem;margin:3rem auto;padding:0 1rem}
label,input,button{display:block;width:100%;box-sizing:border-box;margin-top:.5rem}
input,button{font:inherit;padding:.6rem}.problem{color:#a00}</style></head>
<body><h1>Test identity provider</h1><p>Sign in to continue to Sweatpants.</p>
${problem ? `<p class="problem" role="alert">${problem.replace(/[<>&"]/g, '')}</p>` : ''}
<form method="post" action="/interaction/${uid}/login">
<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="email" required>
<button type="submit">Continue</button></form></body></html>`);
}

function body(req) {
  return new Promise((resolve, reject) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk) => (text += chunk));
    req.on('end', () => resolve(text));
    req.on('error', reject);
  });
}

// Run as a program: options from the first argument, the issuer on stdout, stopped by a signal.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const started = await startOidcProvider(JSON.parse(process.argv[2] ?? '{}'));
  process.stdout.write(`${JSON.stringify({ issuer: started.issuer })}\n`);
  const stop = () => void started.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
