// sw.js: the page's service worker, for Web Push only (it caches
// nothing: the page is always the server's). A push carries a notice the
// server encrypted for this browser (RFC 8291), which the browser has
// decrypted already: {"title", "body", "url", "tag"}. It is shown as a
// notification; one per match (its tag), the newest replacing the older.
// Touching it opens the match, in the tab that shows it when there is one.
self.addEventListener('push', (event) => {
  let notice = {};
  try {
    notice = event.data ? event.data.json() : {};
  } catch {
    notice = { body: event.data ? event.data.text() : '' };
  }
  const title = typeof notice.title === 'string' && notice.title ? notice.title : 'pbem: news from a match';
  event.waitUntil(self.registration.showNotification(title, {
    body: typeof notice.body === 'string' ? notice.body : '',
    tag: typeof notice.tag === 'string' ? notice.tag : undefined,
    icon: '/favicon.svg',
    data: { url: typeof notice.url === 'string' ? notice.url : '/' },
  }));
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  // Only a page of this site: a notice never sends anyone elsewhere.
  let url = new URL('/', self.location.origin);
  try {
    const asked = new URL(event.notification.data?.url ?? '/', self.location.origin);
    if (asked.origin === self.location.origin) url = asked;
  } catch {
    // A malformed link: the start page.
  }
  event.waitUntil((async () => {
    const open = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
    const same = open.find((c) => c.url === url.href);
    if (same) return same.focus();
    return self.clients.openWindow(url.href);
  })());
});
