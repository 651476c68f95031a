// push.js: Web Push on this device (RFC 8030): the service worker
// (/sw.js) shows the notices the server pushes when it is the player's
// turn, even with the page closed. Subscribing asks the browser for the
// permission, subscribes at the browser's push service with the server's
// VAPID key, and hands the subscription to the server; the server keeps
// which subscription is this browser's, and so does this browser
// (localStorage), to turn it off again.
import { call } from './api.js';

const STORED = 'pbem-push-subscription';

export function supported() {
  return 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
}

function bytes(base64url) {
  const text = atob(base64url.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}

// The worker's registration, made when there is none yet.
export async function registration() {
  return (await navigator.serviceWorker.getRegistration('/')) ??
    navigator.serviceWorker.register('/sw.js', { scope: '/' });
}

// Whether this browser's subscription is on at the server: its id, or null.
export async function current(key) {
  const id = localStorage.getItem(STORED);
  if (!id || !supported()) return null;
  const mine = (await call('GET', '/v1/players/me/push-subscriptions', { key })).subscriptions;
  return mine.some((s) => s.id === id) ? id : null;
}

// Turns notices on for this browser. Throws an Error whose message is a
// sentence for the player when the browser or its push service says no.
export async function subscribe(key) {
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') {
    throw new Error('This browser blocks notifications from this site: allow them in its site settings, then try again.');
  }
  const { vapid_public_key: vapid } = await call('GET', '/v1/players/me/push-subscriptions', { key });
  const worker = await registration();
  let subscription;
  try {
    subscription = await worker.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: bytes(vapid) });
  } catch (e) {
    throw new Error(`This browser's push service did not take the subscription (${e.message || e.name}). Your turns still come by mail.`);
  }
  const made = await call('POST', '/v1/players/me/push-subscriptions', { body: subscription.toJSON(), key });
  localStorage.setItem(STORED, made.subscription.id);
  return made.subscription.id;
}

// Turns them off: at the server first (nothing more is sent), then at the
// browser's push service.
export async function unsubscribe(key) {
  const id = localStorage.getItem(STORED);
  if (id) {
    try {
      await call('DELETE', `/v1/players/me/push-subscriptions/${id}`, { key });
    } catch (e) {
      if (e.status !== 404) throw e;
    }
  }
  localStorage.removeItem(STORED);
  const worker = await navigator.serviceWorker.getRegistration('/');
  const subscription = await worker?.pushManager.getSubscription();
  await subscription?.unsubscribe();
}
