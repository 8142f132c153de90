// Package access holds quire's access rules: who the caller of a request is, what role they hold
// on an organization and on each piece of its content, what an installation token may call, and
// what a published site's visitor sees. The API (package server) and the web pages (server/web)
// both decide with it, so a rule is written once and means the same on every path.
//
// The resolution, in order (DESIGN.md §3):
//  1. The caller: a user (their API token or app session), an integration installation (its
//     token) or a renderer reading a published site (the site token the API's URL resolution
//     issues, sitetokens.go). An installation acts in its own organization only, with the role the
//     operation's row of the installation table gives it (installations.go), and only on the
//     spaces and sites it is installed on; a site token reads only the site's published content,
//     as a reader of its organization. Everything else is refused before a handler runs.
//  2. The organization role: a caller who is not a member of the owning organization gets 404, as
//     if the resource did not exist (never 403, which would confirm it does).
//  3. The content role: the stronger of the organization role and the content's default level,
//     resolved through `inherit` up the collections (ContentRoles); a site's role is the
//     organization role raised by the site's default level (SiteRole). Guests get nothing from
//     default levels.
//  4. The operation's minimum: below it, 403 naming the role it needs.
//  5. Published sites (visitors.go, siteaccess.go): a share-link site opens with its key or an
//     active share link's; a visitor token, signed with the server's visitor secret or the site's
//     own key, brings claims; sections, site spaces and pages whose conditions are false for those claims
//     are shown nowhere.
//
// Errors are store errors (ENOTFOUND, EFORBIDDEN) so that each side words them its own way.
//
// Neighbours: it reads through the store contract (the areas in Store) and knows nothing of HTTP;
// it must never import server, server/web, Echo, a SQL driver or a store implementation.
package access
