// api.js: the REST API as the page uses it. Requests that need a player
// are signed in the browser per RFC 9421 with an RFC 9530 Content-Digest,
// exactly as docs/api.md says (the same signature base as
// tests/node/sign-request.mjs produces): "@method", "@path", "@query" when
// there is one, "content-digest" when there is a body; created, keyid,
// alg="ed25519", nonce.
import { base64, hex } from './keys.js';

const utf8 = new TextEncoder();

// An API refusal: .status, .code and .message (the API's own sentence).
export class ApiError extends Error {
  constructor(status, code, message, body) {
    super(message);
    this.status = status;
    this.code = code;
    this.body = body;
  }
}

// The Content-Digest, Signature-Input and Signature headers of a request
// (url a URL, body a string or undefined) signed with key ({privateKey,
// keyId}); created and nonce are chosen here unless given.
export async function signatureHeaders(key, method, url, body, { created, nonce } = {}) {
  const components = ['"@method"', '"@path"'];
  const lines = [`"@method": ${method}`, `"@path": ${url.pathname}`];
  const headers = {};
  if (url.search !== '') {
    components.push('"@query"');
    lines.push(`"@query": ${url.search}`);
  }
  if (body !== undefined) {
    const digest = await crypto.subtle.digest('SHA-256', utf8.encode(body));
    headers['Content-Digest'] = `sha-256=:${base64(digest)}:`;
    components.push('"content-digest"');
    lines.push(`"content-digest": ${headers['Content-Digest']}`);
  }
  created ??= Math.floor(Date.now() / 1000);
  nonce ??= hex(crypto.getRandomValues(new Uint8Array(16)));
  const params = `(${components.join(' ')});created=${created};keyid="${key.keyId}";alg="ed25519";nonce="${nonce}"`;
  lines.push(`"@signature-params": ${params}`);
  const signature = await crypto.subtle.sign({ name: 'Ed25519' }, key.privateKey,
                                             utf8.encode(lines.join('\n')));
  headers['Signature-Input'] = `sig=${params}`;
  headers.Signature = `sig=:${base64(signature)}:`;
  return headers;
}

// Called with the identity when the server no longer knows the stored key
// that signed a request (401 key_revoked or unknown_key: it was revoked, from this browser
// or another one): the app signs this browser out and says so.
let keyRefused = null;
export function onKeyRefused(handler) {
  keyRefused = handler;
}

// Told whether the server answered (true) or could not be reached
// (false), after every request: the app shows an offline mark.
let reachability = null;
export function onReachability(handler) {
  reachability = handler;
}

// method path [body object] → the parsed JSON answer (null for 204), or
// throws ApiError. key (keys.js identity or new key) signs when given.
export async function call(method, path, { body, key, prefer } = {}) {
  const url = new URL(path, location.origin);
  const text = body === undefined ? undefined : JSON.stringify(body);
  const headers = { Accept: 'application/json' };
  if (text !== undefined) headers['Content-Type'] = 'application/json';
  if (prefer) headers.Prefer = prefer;
  if (key) Object.assign(headers, await signatureHeaders(key, method, url, text));
  let response;
  try {
    response = await fetch(url, { method, headers, body: text, cache: 'no-store' });
  } catch (e) {
    reachability?.(false);
    throw new ApiError(0, 'unreachable', 'the server cannot be reached; check your connection and try again');
  }
  reachability?.(true);
  if (response.status === 204) return null;
  let json = null;
  try {
    json = await response.json();
  } catch (e) {
    json = null;
  }
  if (!response.ok) {
    const err = json?.error ?? {};
    // Only a stored identity (it has a player): a new key being enrolled
    // is unknown until the server takes it.
    if (response.status === 401 && (err.code === 'unknown_key' || err.code === 'key_revoked') && key?.player && keyRefused) await keyRefused(key);
    throw new ApiError(response.status, err.code ?? 'http_' + response.status,
                       err.message ?? `the server answered ${response.status}`, json);
  }
  return json;
}
