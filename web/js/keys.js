// keys.js: this browser's signing key. An Ed25519 key pair made by
// WebCrypto with a private key that cannot be exported: it is kept in
// IndexedDB as a CryptoKey object, so no script (ours or an injected one)
// can read its bytes, only ask the browser to sign with it.
import { blake2b } from '/vendor/@noble/hashes/blake2.js';

const DB = 'pbem';
const STORE = 'identity';

function open() {
  return new Promise((resolve, reject) => {
    const req = indexedDB.open(DB, 1);
    req.onupgradeneeded = () => req.result.createObjectStore(STORE);
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

async function run(mode, work) {
  const db = await open();
  try {
    return await new Promise((resolve, reject) => {
      const tx = db.transaction(STORE, mode);
      const req = work(tx.objectStore(STORE));
      tx.oncomplete = () => resolve(req.result);
      tx.onerror = () => reject(tx.error);
    });
  } finally {
    db.close();
  }
}

export function hex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

export function base64(bytes) {
  let text = '';
  for (const b of new Uint8Array(bytes)) text += String.fromCharCode(b);
  return btoa(text);
}

// The key id the service gives a public key: "k_" and the hex of its
// 8-byte BLAKE2b digest (docs/api.md).
export function keyIdOf(publicKey) {
  return `k_${hex(blake2b(publicKey, { dkLen: 8 }))}`;
}

// A new key pair, not yet stored: {privateKey, publicKey, publicRaw,
// keyId}.
export async function makeKey() {
  const pair = await crypto.subtle.generateKey({ name: 'Ed25519' }, false,
                                               ['sign', 'verify']);
  const publicRaw = new Uint8Array(await crypto.subtle.exportKey('raw', pair.publicKey));
  return { privateKey: pair.privateKey, publicKey: pair.publicKey, publicRaw,
           keyId: keyIdOf(publicRaw) };
}

// The stored identity {privateKey, publicKey, publicRaw, keyId, player,
// name} or null.
export function load() {
  return run('readonly', (s) => s.get('me')).then((v) => v ?? null);
}

export function save(identity) {
  return run('readwrite', (s) => s.put(identity, 'me'));
}

export function forget() {
  return run('readwrite', (s) => s.delete('me'));
}
