// Narrows the page's Content-Security-Policy at start-up: index.html allows
// requests to any http(s) URL because #url= / ?url= loads need them; a page
// opened without such a URL adds a second policy allowing only its own
// origin, so nothing can be sent anywhere (policies only ever add up to
// something stricter). A #url= typed in later reloads the page, which then
// starts without the narrowing (app.js).

/**
 * @param {Document} doc
 * @param {boolean} wantsUrls the page was opened with #url= or ?url=
 * @returns {boolean} true when the narrowing policy was added
 */
export function narrowConnectSrc(doc, wantsUrls) {
  if (wantsUrls) return false;
  const m = doc.createElement('meta');
  m.httpEquiv = 'Content-Security-Policy';
  m.content = "connect-src 'self'";
  doc.head.appendChild(m);
  return true;
}
