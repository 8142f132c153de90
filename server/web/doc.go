// Package web serves quire's web pages: published sites, the app views, OpenAPI reference pages
// of organizations' specifications, and quire's own API reference at /docs (rendered from the
// embedded openapi.yaml). It reaches data through the store contract and decides who reads what
// with the access rules (server/access), as the API does; it never imports the API's handlers
// (package server), and the API does not import it: cmd/quire mounts both on one Echo instance (Register), so the
// API's middleware (request ids, logs, metrics, panic recovery, rate limits) covers the pages too.
// The pages' tests are in package server, beside the API tests whose harness they share: they
// author content through the API and read it back as pages, as a reader would.
//
// A published site is a set of web pages, rendered on the server, at `{base-url}/s/{siteId}/` (the
// site's `urls.published`) and, once the site has a `hostname` that points at quire, at the root of
// that host (`https://docs.example.com/…`). No API token is involved and no script runs: the pages
// work with JavaScript off, every asset is embedded in the binary, and light and dark themes follow
// the reader's system preference.
//
//   - Sections are tabs (section groups are menus), a section's site spaces are its variants
//     (`/s/{siteId}/{section}/{variant}/{page path}`; the default section and variant leave their
//     segment out), the page tree is the sidebar (hidden pages are left out of it but answer at their
//     address), and each page has an outline of its headings and previous/next links.
//   - Pages are rendered from their markdown: heading anchors (the same ids search and the API use),
//     code highlighted (chroma), tables, hints, images from the space's files (served under
//     `~files/`), links between pages resolved to their published URLs — in other spaces too, where
//     the site publishes them — and broken links struck through. Raw HTML in markdown is sanitized
//     (bluemonday); the Content-Security-Policy allows no script at all.
//   - `~search?q=…` searches every site space the reader sees, with the API's space search (hidden
//     pages are not results).
//   - Who reads what: `public` sites are indexable (`robots.txt`, `sitemap.xml`); `unlisted` pages say
//     `noindex`; a `share-link` site needs its key (`?share=KEY`, as `urls.published` gives it,
//     then remembered in a cookie), else it is a 404; a `visitor-auth` site needs a visitor token
//     (`?jwt_token=…`, then a cookie), checked as the API checks them, else it answers 401. A key or
//     token in the address is moved into an HttpOnly cookie and the address asked again without it.
//     An unpublished site is a 404. With a visitor token on any site, sections, site spaces and pages
//     whose conditions are false for the visitor's claims are shown nowhere (tabs, sidebar, search,
//     links).
//   - Pages answer `ETag` (and 304), `Cache-Control` (`public, max-age=60` on public sites for
//     anonymous readers, `private, no-cache` otherwise) and gzip. `make bench` runs
//     `BenchmarkWebPage200`: the p95 time of a page of a 200-page space through the full handler and
//     its weight (the targets are 20 ms and 60 KB).
//   - The browser test (`server/web_browser_test.go`, part of `make test`) drives Debian's `chromium`
//     with chromedp and leaves screenshots in `testdata/artifacts/web/` (or `$QUIRE_ARTIFACTS`); it
//     skips only when no chromium is installed (`apt-get install chromium`; `.ci/run` does it).
//   - App views (`urls.app`, members only, read-only): sign in at `/app/login` with your email and
//     one of your API tokens, or through your organization's SAML provider (enter the organization's
//     id on the sign-in page: it lists a "Sign in with …" link per provider). `/app` lists your organizations,
//     `/app/o/{orgId}` its collections and the spaces you can read, `/app/o/{orgId}/c/{id}` a
//     collection, `/app/o/{orgId}/sites/{id}` a site (audience, published or not, its site spaces),
//     `/app/s/{spaceId}/{page path}` a space's page tree and pages (hidden and conditional pages
//     included) with each page's comment threads and the space's change requests,
//     `/app/s/{spaceId}/revisions/{revisionId}/{page path}` a space as it was at a revision, and
//     `/app/s/{spaceId}/change-requests/{number}` a change request with its reviewers and reviews
//     (outdated ones marked), its comment threads and its diff against its base (pages added,
//     removed, moved, and a line diff of each changed page).
//     Access is the API's, checked on every request: 404 outside your organizations.
//   - App sessions: a session is a row in the database (table `app_sessions`: the SHA-256 of a random
//     id, the user, the API token it signed in with, created and expiry times); the HttpOnly,
//     SameSite=Lax cookie `quire_session` holds only the id. Each app request reads the row (one
//     primary-key read), so a session ends at once, on every node, when you `Sign out` (the row is
//     deleted), when the token it signed in with is revoked (`quire tokens revoke ID` — the row goes
//     with the token), when the user is deleted, or after 12 hours. Expired rows are deleted at each
//     sign-in and by the hourly purge job. Installation tokens cannot sign in to the app.
//   - The sign-in and sign-out forms carry a CSRF token: sign-in an HMAC (keyed from the server's
//     secret) of a random pre-session cookie (`quire_form`, set by the sign-in page), sign-out an HMAC
//     of the session's id. A post without the right token (a form on another site) is refused with
//     403 and changes nothing.
//   - SAML from the app: a provider's start URL with `?return=/app…` (a path of the app, at most 512
//     characters; anything else is a 400) carries that path in the RelayState under its HMAC; the ACS
//     then opens an app session bound to the API token the login issued (named `sso:<label>`;
//     revoking it ends the session) and redirects there, and a refused login shows the reason as an
//     app page. Without `return` the ACS answers the JSON token as before, for API clients. With a
//     long `return` the RelayState exceeds the 80 bytes SAML's redirect binding allows; the usual
//     identity providers take longer ones, and `return=/app` stays within it.
//   - OpenAPI specifications on the web: a browser opening a specification's `urls.published` (a
//     request that accepts `text/html`) gets a reference page rendered from the document (Swagger 2.0,
//     OpenAPI 3.0 and 3.1): operations grouped by tag, parameters, request and response schemas
//     flattened to rows, examples (the document's, or made from the schema); tools, and `?raw=1`, get
//     the document itself. A page of a published site with an `{% openapi-operation spec="slug"
//     path="/pets" method="get" %}` block shows that operation of the organization's specification in
//     its place (a missing specification or operation is marked broken).
//   - Not there yet: `openapi-schemas` and `openapi-webhook` blocks; reviewers in the app (quire stores
//     no review requests); site customization beyond the title (quire stores no logo or colours yet).
package web
