// Helpers for the reference's OAuth tests (src/reference/auth*.test.ts): servers started per test
// and closed after it, the client's credentials, and a browser's form POST to the auth origin.
import { startReference, type ReferenceOptions, type RunningReference } from '../../reference/server.ts';

const running: RunningReference[] = [];

/** A reference server, closed again by closeStarted. */
export async function start(opts: ReferenceOptions = {}): Promise<RunningReference> {
  const ref = await startReference(opts);
  running.push(ref);
  return ref;
}

/** Closes every server `start` started: afterEach(closeStarted). */
export async function closeStarted(): Promise<void> {
  await Promise.all(running.splice(0).map((r) => r.close()));
}

/** client_id and client_secret of the server's client. */
export function creds(ref: RunningReference): Record<string, string> {
  return { client_id: ref.client.id, client_secret: ref.client.secret };
}

/** POSTs `fields` as a form to `action` (resolved against the auth URL), without following a redirect. */
export async function submit(ref: RunningReference, action: string, fields: Record<string, string>): Promise<Response> {
  return fetch(new URL(action, ref.authUrl).href, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
    redirect: 'manual',
  });
}
