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
//     spaces and sites it is installed on; a site token reads only the site's published content
//     (and the OpenAPI specifications its pages show), as a reader of its organization. Everything else is refused before a handler runs.
//  2. The organization role: a caller who is not a member of the owning organization gets 404, as
//     if the resource did not exist (never 403, which would confirm it does).
//  3. The content role (ContentRoles, issue 28): admins of the organization are admins of all
//     its content. For the others, the organization role where the content's default level
//     leaves it — resolved through `inherit` up the collections to the organization; a level
//     raises the role, null takes it away (no access by default); guests get nothing from levels —
//     raised by the grants (store.Permissions) on every collection above the content and on the
//     content itself, a team's grant counting for each of its members. A site's role is the same
//     from the site's default level and grants (ContentRoles.Site). The grants are read once per
//     resolution, in one query, and lists are narrowed in SQL by the same rules (Visible). An
//     installation or site token is scoped by its own table instead: levels do not narrow it and
//     members' grants are not its.
//  4. The operation's minimum: no role at all on the content is 404 (it is not shown to them);
//     a role below the minimum is 403 naming the role it needs.
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
